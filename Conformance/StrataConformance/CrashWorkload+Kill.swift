import Foundation

extension CrashWorkload {
    /// Runs `executable arguments` (a writer saving generations and printing `saved <g>` after each)
    /// `rounds` times and kills it with SIGKILL. A round never relies on a timer: it waits until the
    /// writer has *reported* a save beyond everything seen so far (one to three more, varying by
    /// round), then kills it after a random pause of up to 3 ms, so every kill lands while a save is
    /// in flight or just after it, however slowly the writer starts. After each kill `reopen` must
    /// return the generation the store holds (throwing if it holds a mix); that generation must be
    /// at least the last one the writer reported (a reported save survives) and never go back.
    /// Returns the generations seen. A writer that stops reporting for `stallLimit` fails the round
    /// instead of hanging the test. `strata torture` is the long, tabulated form of this check.
    public static func killRepeatedly(
        _ executable: URL, _ arguments: [String], rounds: Int, seed: UInt64 = 1,
        stallLimit: Duration = .seconds(300), reopen: () throws -> Int
    ) throws -> [Int] {
        var seen: [Int] = []
        var random = SeededGenerator(state: seed)
        for round in 0..<rounds {
            let writer = try WriterProcess(executable, arguments, stallLimit: stallLimit)
            let floor = (seen.last ?? -1) + 1 + Int(random.next() % 3)
            let reached = writer.waitForReport(atLeast: floor)
            // Where inside the next save the kill lands varies with this pause; the outcome must not.
            usleep(UInt32(random.next() % 3_000))
            writer.kill()
            guard reached else {
                throw WorkloadError("round \(round + 1): the writer ended before reporting generation \(floor) (last reported \(writer.reported), exit \(writer.process.terminationStatus))")
            }
            let generation = try reopen()
            if generation < writer.reported {
                throw WorkloadError("after kill \(round + 1) the store holds generation \(generation), but the writer had reported generation \(writer.reported) as saved")
            }
            if let last = seen.last, generation < last {
                throw WorkloadError("after kill \(round + 1) the store went back from generation \(last) to \(generation)")
            }
            seen.append(generation)
        }
        return seen
    }
}
