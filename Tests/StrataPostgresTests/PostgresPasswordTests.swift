import Foundation
import Strata
@testable import StrataPostgres
import Testing

/// A password never appears in an error message, a description or a log line.
struct PostgresPasswordTests {
    @Test("the password is found in a URL's user info, a password= parameter and key=value form")
    func passwordsFound() {
        #expect(PostgresConnectionSettings.passwords(in: "postgresql://app:s3cr%40t@db:5432/shop") == ["s3cr%40t"])
        #expect(PostgresConnectionSettings.passwords(in: "postgresql://app@db/shop?password=hunter2&sslmode=disable") == ["hunter2"])
        #expect(PostgresConnectionSettings.passwords(in: "host=db password='two words' user=app") == ["two words"])
        #expect(PostgresConnectionSettings.passwords(in: "postgresql://app@db/shop").isEmpty)
    }

    @Test("a configuration's name and description show *** for the password")
    func description() throws {
        let config = PostgresStoreConfiguration(url: "postgresql://app:s3cr%40t@db:5432/shop", schema: try Schema {}, namespace: "n")
        #expect(config.name == "postgresql://app:***@db:5432/shop#n")
        #expect(!"\(config)".contains("s3cr"))
        let settings = PostgresConnectionSettings(url: "host=db", environment: ["PGPASSWORD": "from-env"])
        #expect(settings.redacting("failed for from-env") == "failed for ***")
    }

    @Test("a refused password: storeUnavailable, and the error text holds no password",
          .enabled(if: PostgresTestServer.isConfigured, PostgresTestServer.reason))
    func wrongPassword() throws {
        let right = PostgresTestServer.password!
        let wrong = "wrong-\(right)-pw"
        let url = PostgresTestServer.tcpURL!.replacingOccurrences(of: ":\(right)@", with: ":\(wrong)@")
        #expect(url.contains(wrong))
        do {
            _ = try PostgresConnection(settings: PostgresConnectionSettings(url: url))
            Issue.record("the wrong password was accepted")
        } catch let error as StrataError {
            #expect(error.code == .storeUnavailable)
            let text = "\(error) \(error.message) \(String(describing: error.native))"
            #expect(text.contains("password authentication failed"), "\(text)")
            #expect(!text.contains(wrong) && !text.contains(right), "\(text)")
        }
    }

    @Test("a malformed URL carrying a password: the error text holds no password")
    func malformedURL() throws {
        let url = "postgresql://app:p%zzword-123@127.0.0.1:1/db"
        do {
            _ = try PostgresConnection(settings: PostgresConnectionSettings(url: url))
            Issue.record("a malformed URL connected")
        } catch let error as StrataError {
            #expect(error.code == .storeUnavailable)
            #expect(!"\(error)".contains("word-123"), "\(error)")
        }
    }

    @Test("no server at the address: storeUnavailable naming the address without the password")
    func noServer() throws {
        do {
            _ = try PostgresConnection(settings: PostgresConnectionSettings(url: "postgresql://app:pw-9876@127.0.0.1:1/db?connect_timeout=2"))
            Issue.record("connected to nothing")
        } catch let error as StrataError {
            #expect(error.code == .storeUnavailable)
            #expect("\(error)".contains("postgresql://app:***@127.0.0.1:1/db"), "\(error)")
            #expect(!"\(error)".contains("pw-9876"))
        }
    }
}
