package io.hexstream.codec.json;

/**
 * A reused view of characters the reader owns (a name, a string, a number): valid only during the listener call it is
 * passed to; {@link #toString()} copies it.
 */
final class TextView implements CharSequence {
    private char[] chars;
    private int offset;
    private int length;

    TextView set(char[] chars, int offset, int length) {
        this.chars = chars;
        this.offset = offset;
        this.length = length;
        return this;
    }

    @Override
    public int length() {
        return length;
    }

    @Override
    public char charAt(int index) {
        if (index < 0 || index >= length) {
            throw new IndexOutOfBoundsException(index);
        }
        return chars[offset + index];
    }

    @Override
    public CharSequence subSequence(int start, int end) {
        return toString().substring(start, end);
    }

    @Override
    public String toString() {
        return new String(chars, offset, length);
    }
}
