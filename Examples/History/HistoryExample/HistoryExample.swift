import ExampleSupport
import Foundation
import StrataModel
#if canImport(Glibc)
import Glibc
#endif

/// The History example: a help desk saves tickets, a worker follows the store's history from a
/// saved token and prints what changed — in the same process (`run`, what `make examples`
/// compares across backends) or in another one running beside the writer (`follow` and `write`,
/// the `history follow` and `history write` commands).
public enum HistoryExample {
    /// The model types.
    public static var models: [any PersistentModel.Type] { [Ticket.self] }
    /// The desk's author name, on every transaction it saves.
    public static let author = "desk"

    /// Save number `n` of the desk's fixed sequence (one save each, every third one a cycle):
    /// open ticket `n`, close it, delete it.
    public static func save(_ n: Int, in container: ModelContainer) throws {
        let context = ModelContext(container)
        context.author = author
        switch n % 3 {
        case 1:
            context.insert(Ticket(number: n, title: "Ticket \(n)"))
        case 2:
            let number = n - 1
            let ticket = try ExampleError.require(try context.fetch(FetchDescriptor<Ticket>(predicate: #Predicate { $0.number == number })).first, "no ticket \(number)")
            ticket.status = "closed"
        default:
            let number = n - 2
            let ticket = try ExampleError.require(try context.fetch(FetchDescriptor<Ticket>(predicate: #Predicate { $0.number == number })).first, "no ticket \(number)")
            context.delete(ticket)
        }
        try context.save()
    }

    /// What a follower prints for one transaction: its number and author, then one line per change
    /// with the values SwiftData leaves out (old and new values, the deleted record's last values).
    public static func describe(_ transaction: DefaultHistoryTransaction) -> [String] {
        var lines = ["#\(transaction.transactionIdentifier) by \(transaction.author ?? "nobody"):"]
        for change in transaction.storeTransaction.changes {
            let record = "\(change.identifier.entityName) \(change.identifier.primaryKey)"
            switch change.kind {
            case .insert:
                lines.append("  inserted \(record)")
            case .update:
                let values = change.attributes.map { "\($0.name) \(text($0.old)) → \(text($0.new))" }
                lines.append("  updated \(record): " + values.joined(separator: ", "))
            case .delete:
                let last = ["number", "title", "status"].compactMap { name in change.tombstone[name].map { "\(name) \(text($0))" } }
                lines.append("  deleted \(record) (was " + last.joined(separator: ", ") + ")")
            }
        }
        return lines
    }

    private static func text(_ value: Strata.Value) -> String {
        switch value {
        case .string(let s): "'\(s)'"
        case .int(let i): "\(i)"
        default: "\(value)"
        }
    }

    /// Runs the example in one process on a fresh store in `folder`: the desk saves, a follower
    /// prints each transaction as it commits, then resumes from a saved token and history is
    /// trimmed, as a worker does.
    public static func run(_ backend: ExampleBackend, folder: URL, out: ExampleOutput) async throws {
        backend.destroy(folder)
        let container = try backend.historyContainer(for: models, in: folder)
        var follower = container.historyTransactions(after: nil, authors: [author]).makeAsyncIterator()
        var token: DefaultHistoryToken?
        for round in 0..<2 {
            for n in (round * 3 + 1)...(round * 3 + 3) { try save(n, in: container) }
            out("The desk saved 3 times; the follower saw:")
            for _ in 0..<3 {
                let transaction = try ExampleError.require(try await follower.next(), "the history sequence ended")
                for line in describe(transaction) { out(line) }
                if round == 0 { token = transaction.token }
            }
        }
        // A worker that stopped after the first round resumes from its saved token (SwiftData code).
        let saved = try ExampleError.require(token, "no token")
        let context = ModelContext(container)
        let later = try context.fetchHistory(HistoryDescriptor<DefaultHistoryTransaction>(predicate: #Predicate { $0.token > saved }))
        out("After the saved token #\(saved.id): \(later.map { "#\($0.transactionIdentifier)" }.joined(separator: ", "))")
        try context.deleteHistory(HistoryDescriptor<DefaultHistoryTransaction>(predicate: #Predicate { $0.token <= saved }))
        let kept = try context.fetchHistory(HistoryDescriptor<DefaultHistoryTransaction>())
        out("History deleted through #\(saved.id); kept: \(kept.map { "#\($0.transactionIdentifier)" }.joined(separator: ", "))")
    }

    /// The worker of `history follow`: opens the store at `folder` read-only, prints `following…`
    /// once it watches (the other process may save from then on), then every transaction after
    /// the token saved in `tokenFile` (from the oldest kept without one) as it commits, saving the
    /// token after each; stops after `count`. With `timestamps`, each transaction line ends with
    /// ` @<CLOCK_MONOTONIC ns>` when it was received (for the latency figure).
    public static func follow(_ backend: ExampleBackend, folder: URL, count: Int, tokenFile: URL?, timestamps: Bool, out: (String) -> Void) async throws {
        let container = try backend.historyContainer(for: models, in: folder, readOnly: true)
        var token: DefaultHistoryToken?
        if let tokenFile, let data = try? Data(contentsOf: tokenFile) { token = try JSONDecoder().decode(DefaultHistoryToken.self, from: data) }
        let transactions = container.historyTransactions(after: token)
        out("following from " + (token.map { "#\($0.id)" } ?? "the start"))
        var seen = 0
        for try await transaction in transactions {
            let received = monotonicNanoseconds()
            var lines = describe(transaction)
            if timestamps { lines[0] += " @\(received)" }
            for line in lines { out(line) }
            if let tokenFile { try JSONEncoder().encode(transaction.token).write(to: tokenFile, options: .atomic) }
            seen += 1
            if seen >= count { break }
        }
    }

    /// The desk of `history write`: saves numbers `saves` of the fixed sequence into the store at
    /// `folder` (creating it), printing `committed #n` after each (with `timestamps`, ` @<ns>` after
    /// the commit and ` started @<ns>` when the save began);
    /// `recordsHistory: false` saves the same without recording (what recording costs).
    public static func write(_ backend: ExampleBackend, folder: URL, saves: ClosedRange<Int>?, timestamps: Bool, recordsHistory: Bool = true, out: (String) -> Void) throws {
        let container = try backend.historyContainer(for: models, in: folder, recordsHistory: recordsHistory)
        for n in saves.map(Array.init) ?? [] {
            let started = monotonicNanoseconds()
            try save(n, in: container)
            out("committed \(n)" + (timestamps ? " @\(monotonicNanoseconds()) started @\(started)" : ""))
        }
    }

    /// `CLOCK_MONOTONIC` in nanoseconds: one clock for every process of the machine.
    public static func monotonicNanoseconds() -> Int64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Int64(now.tv_sec) * 1_000_000_000 + Int64(now.tv_nsec)
    }
}
