import CFFmpeg

/// Memory that was freed but that the C allocator still holds.
public enum FreedMemory {
    /// Hands whole free pages of every malloc arena back to the system (glibc's `malloc_trim`).
    ///
    /// Why: a decoder's frames are allocated on FFmpeg's threads, so glibc keeps them in those
    /// threads' arenas after the decoder is freed, where the thread building a job's result cannot
    /// reuse them. Returning them first keeps a long clip's result from raising the peak resident
    /// size above what decoding needed. Takes a few milliseconds; harmless while other jobs run.
    public static func returnToSystem() {
        _ = reelwork_malloc_trim()
    }
}
