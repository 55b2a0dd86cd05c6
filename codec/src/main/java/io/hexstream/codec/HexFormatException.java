package io.hexstream.codec;

/**
 * Thrown when text is not strict Engine API {@code DATA}: {@code 0x} followed by an even number of
 * hex digits {@code [0-9a-fA-F]} (execution-apis {@code src/engine/common.md}, "Encoding").
 *
 * <p>The message names the offending index and character, or the expected and actual length.
 * {@link #index()} is the zero-based position in the text (counting the {@code 0x} prefix) of the
 * first offending character, or {@code -1} when the fault is the length or a {@code null} input.
 */
public final class HexFormatException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    private final int index;

    HexFormatException(String message, int index) {
        super(message);
        this.index = index;
    }

    /** Position of the first offending character in the text, or {@code -1} for length and null faults. */
    public int index() {
        return index;
    }
}
