package io.hexstream.codec;

/**
 * Thrown by {@link HexDecoder} when text is not {@code 0x} followed by an even number of hex digits {@code [0-9a-fA-F]}
 * (the Engine API's {@code DATA}), or not of the expected length.
 *
 * <p>The message names the offending index and character, or the expected and actual length. {@link #index()} is the
 * zero-based position in the text (counting the {@code 0x} prefix) of the first offending character, or {@code -1} when
 * the fault is the length or a {@code null} input.
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
