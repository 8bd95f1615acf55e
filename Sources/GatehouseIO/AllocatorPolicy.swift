import CLinux

/// How the C allocator treats memory the workers free. A response larger than a pooled 4 KiB
/// buffer grows its connection's output buffer (a 64 KiB body grows it to 128 KiB), and that
/// buffer is freed when the connection goes idle. With glibc's defaults the heap hands such a
/// block back to the kernel (`madvise`) once its free top passes 128 KiB, and the next response
/// faults every page in again: about 11 page faults per 64 KiB response. Kept, the block is
/// reused. The price: after a burst a worker's heap keeps up to `trimThreshold` of free space.
public enum AllocatorPolicy {
    /// Blocks below this come from the heap, not from a mapping of their own.
    public static let mmapThreshold = 1 << 20
    /// Free space a heap keeps before it is trimmed.
    public static let trimThreshold = 16 << 20

    /// Called once before the workers start (after the configuration is read, so what loading
    /// it freed was already returned).
    public static func keepFreedMemory() {
        gh_keep_freed_memory(mmapThreshold, trimThreshold)
    }
}
