import CLibXML2
import Foundation
@_spi(StrataEngine) import Strata

/// Bytes libxml2 owns for the duration of one callback.
typealias XMLBytes = UnsafeBufferPointer<UInt8>

extension UnsafeBufferPointer<UInt8> {
    /// Whether the bytes spell `text` (ASCII).
    func spells(_ text: StaticString) -> Bool {
        count == text.utf8CodeUnitCount && (count == 0 || memcmp(baseAddress!, text.utf8Start, count) == 0)
    }

    /// The bytes as a string (the parser has checked they are UTF-8).
    var string: String { String(decoding: self, as: UTF8.self) }
}

/// An element or attribute name as libxml2 hands it over: NUL-terminated UTF-8, compared where it
/// lies (no `strlen` per name).
struct XMLName {
    let pointer: UnsafePointer<UInt8>

    /// Whether the name is `text` (ASCII). Reads no byte past the name's NUL: it stops at the first
    /// byte that differs, and `text` holds no NUL.
    @inline(__always)
    func spells(_ text: StaticString) -> Bool {
        let t = text.utf8Start
        let n = text.utf8CodeUnitCount
        var i = 0
        while i < n {
            if pointer[i] != t[i] { return false }
            i += 1
        }
        return pointer[n] == 0
    }

    /// The name as a string, for messages.
    var string: String { String(cString: pointer) }
}

/// The attributes of one start tag, as SAX2 hands them over (five pointers per attribute).
struct XMLAttributes {
    fileprivate let base: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?
    fileprivate let count: Int

    /// The value of the attribute called `name`, or `nil`.
    subscript(_ name: StaticString) -> XMLBytes? {
        guard let base else { return nil }
        for i in 0..<count {
            let p = base + 5 * i
            if XMLName(pointer: p[0]!).spells(name), let start = p[3], let end = p[4] { return XMLBytes(start: start, count: end - start) }
        }
        return nil
    }
}

/// Runs libxml2's SAX2 parser over bytes in memory and hands what it reports to an
/// `XMLStoreReader` (names and values as bytes valid for the call), turning failures into one `StrataError`.
///
/// It is the only reader of Strata's XML: streaming (nothing is built but what the handler builds),
/// strict (the first well-formedness error ends the parse, with libxml2's message, line and column;
/// libxml2 prints nothing), and closed to hostile input: a document type declaration is refused the
/// moment it starts — before its internal subset is read — so neither an external entity (XXE) nor an
/// entity bomb is ever declared, loaded or expanded; entities are never substituted and the network
/// is never used. Elements nested deeper than `maximumDepth` are refused.
enum XMLEventParser {
    /// The deepest nesting a Strata file has is 4 (store, entity, record, value); more is refused.
    static let maximumDepth = 8

    /// Parses `bytes` as one XML document, reporting to `handler`.
    ///
    /// - Throws: `corruptStore` naming `file` with libxml2's line, column and message for malformed
    ///   input, or what `handler` threw (given the line and column where it was).
    static func parse(_ bytes: UnsafeRawBufferPointer, file: String, into handler: XMLStoreReader) throws {
        let run = Run(handler: handler)
        let context = Unmanaged.passRetained(run)
        defer { context.release() }
        guard bytes.count < Int(Int32.max), let ctxt = withUnsafePointer(to: handlerTable, { table in
            strata_xml_context(bytes.baseAddress?.assumingMemoryBound(to: CChar.self), Int32(bytes.count), table, context.toOpaque())
        }) else {
            throw StrataError(.ioFailure, "libxml2 could not start a parser (out of memory, or a file over 2 GiB).", file: file)
        }
        run.parser = ctxt
        let wellFormed = withExtendedLifetime(handler) { strata_xml_parse(ctxt) == 1 }
        let line = Int(xmlSAX2GetLineNumber(ctxt)), column = Int(xmlSAX2GetColumnNumber(ctxt))
        xmlFreeParserCtxt(ctxt)
        if var error = run.failure {
            error.file = file
            if error.line == nil { (error.line, error.column) = (line, column) }
            throw error
        }
        if let message = run.libxmlMessage ?? (wellFormed ? nil : "the parser stopped") {
            throw StrataError(
                .corruptStore, "The file is not well-formed XML at line \(run.libxmlLine ?? line), column \(run.libxmlColumn ?? column): \(message) (libxml2). It may be truncated or edited; restore it from a backup.",
                file: file, line: run.libxmlLine ?? line, column: run.libxmlColumn ?? column)
        }
    }

    /// One parse's state, reached from the C callbacks through the context pointer. The fields
    /// every event reads carry no run-time exclusivity check (one thread, no overlapping access).
    fileprivate final class Run {
        /// Not retained per event (`parse` keeps the handler alive for the whole parse): calls go
        /// through `handle`, which lends the reference without a retain and release.
        let handler: Unmanaged<XMLStoreReader>
        #if !STRATA_INTERNAL_CHECKS  // debug builds check exclusivity here (docs/architecture.md, "Internal checks")
        @exclusivity(unchecked)
        #endif
        var parser: xmlParserCtxtPtr?
        #if !STRATA_INTERNAL_CHECKS
        @exclusivity(unchecked)
        #endif
        var depth = 0
        var failure: StrataError? { didSet { failed = failure != nil } }
        /// Whether the parse failed (a plain flag: the callbacks test it on every event).
        #if !STRATA_INTERNAL_CHECKS
        @exclusivity(unchecked)
        #endif
        var failed = false
        var libxmlMessage: String?
        var libxmlLine: Int?
        var libxmlColumn: Int?

        init(handler: XMLStoreReader) { self.handler = Unmanaged.passUnretained(handler) }

        /// Runs `body` with the handler, lent without reference counting.
        @inline(__always)
        func handle(_ body: (XMLStoreReader) throws -> Void) rethrows {
            try handler._withUnsafeGuaranteedRef(body)
        }

        func stop(_ error: Error) {
            guard failure == nil else { return }
            if let error = error as? StrataError {
                failure = error
            } else {
                failure = StrataError(.corruptStore, "\(error)")
            }
            if let parser {
                failure?.line = Int(xmlSAX2GetLineNumber(parser))
                failure?.column = Int(xmlSAX2GetColumnNumber(parser))
                xmlStopParser(parser)
            }
        }

        static func from(_ pointer: UnsafeMutableRawPointer?) -> Run {
            Unmanaged<Run>.fromOpaque(pointer!).takeUnretainedValue()
        }

        /// Runs `body` with the run behind `pointer`, without retaining and releasing it (the hot
        /// callbacks: `parse` holds the only reference until the parse ends).
        @inline(__always)
        static func with(_ pointer: UnsafeMutableRawPointer?, _ body: (Run) -> Void) {
            Unmanaged<Run>.fromOpaque(pointer!)._withUnsafeGuaranteedRef(body)
        }
    }

    /// The SAX2 handler: only what a store file uses; everything else (comments, processing
    /// instructions) is ignored, and a DTD or an entity reference stops the parse.
    nonisolated(unsafe) private static let handlerTable: xmlSAXHandler = {
        var h = xmlSAXHandler()
        h.initialized = UInt32(XML_SAX2_MAGIC)
        h.startElementNs = { context, localname, _, _, _, _, attributeCount, _, attributes in
            Run.with(context) { run in
                guard !run.failed else { return }
                run.depth += 1
                guard run.depth <= XMLEventParser.maximumDepth else {
                    return run.stop(StrataError(.corruptStore, "Elements are nested deeper than \(XMLEventParser.maximumDepth) levels; a Strata file needs 4. The file is not a Strata store or is damaged."))
                }
                do {
                    try run.handle { try $0.start(XMLName(pointer: localname!), XMLAttributes(base: attributes, count: Int(attributeCount))) }
                } catch {
                    run.stop(error)
                }
            }
        }
        h.endElementNs = { context, _, _, _ in
            Run.with(context) { run in
                guard !run.failed else { return }
                run.depth -= 1
                do { try run.handle { try $0.end() } } catch { run.stop(error) }
            }
        }
        h.characters = { context, bytes, length in
            Run.with(context) { run in
                guard !run.failed else { return }
                run.handle { $0.text(XMLBytes(start: bytes, count: Int(length))) }
            }
        }
        h.cdataBlock = h.characters
        h.internalSubset = { context, _, _, _ in
            Run.from(context).stop(StrataError(.corruptStore, "The file declares a document type (<!DOCTYPE>); Strata files never do, and DTDs, external entities and entity expansion are refused."))
        }
        h.reference = { context, name in
            let entity = name.map { String(cString: $0) } ?? "?"
            Run.from(context).stop(StrataError(.corruptStore, "The file refers to entity '&\(entity);'; Strata files use only the predefined entities and character references."))
        }
        h.serror = { context, error in
            guard let context, let error, error.pointee.level.rawValue >= XML_ERR_ERROR.rawValue else { return }
            let run = Run.from(context)
            guard run.libxmlMessage == nil else { return }
            let message = error.pointee.message.map { String(cString: $0) } ?? "error \(error.pointee.code)"
            run.libxmlMessage = message.trimmingCharacters(in: .whitespacesAndNewlines)
            run.libxmlLine = Int(error.pointee.line)
            run.libxmlColumn = Int(error.pointee.int2)
        }
        return h
    }()
}
