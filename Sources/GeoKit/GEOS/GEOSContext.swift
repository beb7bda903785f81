import CGEOS
import Foundation

/// A GEOS context handle: GEOS's reentrant API needs one per thread.
///
/// A context is not thread-safe, so code never shares one: it asks for
/// ``GEOSContext/current``, which belongs to the calling thread and lives as
/// long as the thread. Geometries are not tied to a context; any thread may
/// read a ``Geometry`` with its own context.
public final class GEOSContext {
    /// The raw handle, for the wrappers in this module.
    let handle: GEOSContextHandle_t

    /// The last error GEOS reported on this context, if any.
    public private(set) var lastError: String?

    private init() {
        handle = GEOS_init_r()
        let userData = Unmanaged.passUnretained(self).toOpaque()
        GEOSContext_setErrorMessageHandler_r(handle, { message, userData in
            guard let message, let userData else { return }
            let context = Unmanaged<GEOSContext>.fromOpaque(userData).takeUnretainedValue()
            context.lastError = String(cString: message)
        }, userData)
        GEOSContext_setNoticeMessageHandler_r(handle, { _, _ in }, nil)
    }

    deinit {
        GEOS_finish_r(handle)
    }

    /// The calling thread's context, created on first use.
    public static var current: GEOSContext {
        if let existing = pthread_getspecific(threadKey) {
            return Unmanaged<GEOSContext>.fromOpaque(existing).takeUnretainedValue()
        }
        let context = GEOSContext()
        pthread_setspecific(threadKey, Unmanaged.passRetained(context).toOpaque())
        return context
    }

    /// Takes the last error message (clearing it), or a default text.
    func takeError(_ operation: String) -> GeometryError {
        defer { lastError = nil }
        return GeometryError.geos(operation: operation, message: lastError ?? "unknown GEOS error")
    }

    /// GEOS's library version, e.g. "3.11.1-CAPI-1.17.1".
    public static var libraryVersion: String { String(cString: GEOSversion()) }
}

/// The thread-local slot holding each thread's context; the destructor
/// releases the context when its thread ends.
private let threadKey: pthread_key_t = {
    var key = pthread_key_t()
    pthread_key_create(&key) { pointer in
        guard let pointer else { return }
        Unmanaged<GEOSContext>.fromOpaque(pointer).release()
    }
    return key
}()
