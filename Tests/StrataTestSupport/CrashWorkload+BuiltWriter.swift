import Foundation
import StrataConformance

extension CrashWorkload {
    /// `strata crash-writer` on `backend`, writing the store in `folder`, killed `rounds` times inside
    /// its saves (`killRepeatedly`); `reopen` opens the store after each kill and returns the
    /// generation it holds. Returns the generations seen; throws when a reported save was lost, the
    /// store went back, no save ever completed, or the kills landed at fewer than six moments.
    @discardableResult
    public static func killBuiltWriter(backend: String, in folder: URL, rounds: Int = 24, reopen: () throws -> Int) throws -> [Int] {
        let arguments = ["crash-writer", "--backend", backend, "--path", folder.path, "--saves", "1000000"]
        let generations = try killRepeatedly(BuiltProducts.strata, arguments, rounds: rounds, reopen: reopen)
        guard generations.last ?? 0 > 0 else { throw WorkloadError("\(backend): no save ever completed") }
        guard Set(generations).count > 5 else { throw WorkloadError("\(backend): the writer was not killed at enough different moments: \(generations)") }
        return generations
    }
}
