package io.hexstream.codec.json;

import java.util.Arrays;

/**
 * The open containers of a {@link JsonHexReader}, outermost first: for an object the name of its current member, for an
 * array the index of its current element. Names live back to back in one {@code char[]}, so the whole path is at most
 * {@code maxDepth} names of at most the reader's text bound.
 */
final class JsonPath {
    private final int maxDepth;
    private boolean[] objects = new boolean[8];
    /** Per level: the current element's index (arrays), or the current name's start in {@link #names} (objects). */
    private int[] positions = new int[8];
    /** Per object level: the current name's length, {@code -1} before the first name. */
    private int[] nameLengths = new int[8];

    private char[] names = new char[64];
    private int namesEnd;
    private int depth;

    JsonPath(int maxDepth) {
        this.maxDepth = maxDepth;
    }

    int depth() {
        return depth;
    }

    /** Opens a container; false when that would pass the bound (nothing changes). */
    boolean push(boolean object) {
        if (depth == maxDepth) {
            return false;
        }
        if (depth == objects.length) {
            int grown = Math.min(maxDepth, 2 * depth);
            objects = Arrays.copyOf(objects, grown);
            positions = Arrays.copyOf(positions, grown);
            nameLengths = Arrays.copyOf(nameLengths, grown);
        }
        objects[depth] = object;
        positions[depth] = object ? namesEnd : 0;
        nameLengths[depth] = -1;
        depth++;
        return true;
    }

    void pop() {
        depth--;
        if (objects[depth]) {
            namesEnd = positions[depth];
        }
    }

    boolean inObject() {
        return depth > 0 && objects[depth - 1];
    }

    /** The innermost object's member name is now {@code chars[0, length)}. */
    void name(char[] chars, int length) {
        int start = positions[depth - 1];
        if (start + length > names.length) {
            names = Arrays.copyOf(names, Math.max(2 * names.length, start + length));
        }
        System.arraycopy(chars, 0, names, start, length);
        namesEnd = start + length;
        nameLengths[depth - 1] = length;
    }

    /** The innermost array moves to its next element. */
    void next() {
        positions[depth - 1]++;
    }

    /** The current element's index in the innermost container if it is an array, else {@code -1}. */
    int index() {
        return depth > 0 && !objects[depth - 1] ? positions[depth - 1] : -1;
    }

    /** The current member's name in the innermost container if it is an object (and has one), else null. */
    CharSequence name(TextView view) {
        if (!inObject() || nameLengths[depth - 1] < 0) {
            return null;
        }
        return view.set(names, positions[depth - 1], nameLengths[depth - 1]);
    }

    /** {@code result[3].proofs[17]}; names that are not plain identifiers as {@code ["a b"]}. */
    String render() {
        StringBuilder out = new StringBuilder();
        for (int level = 0; level < depth; level++) {
            if (!objects[level]) {
                out.append('[').append(positions[level]).append(']');
            } else if (nameLengths[level] >= 0) {
                appendName(out, positions[level], nameLengths[level]);
            }
        }
        return out.toString();
    }

    private void appendName(StringBuilder out, int start, int length) {
        boolean plain = length > 0;
        for (int i = start; i < start + length && plain; i++) {
            char c = names[i];
            plain = c < 128 && (Character.isLetterOrDigit(c) || c == '_' || c == '$');
        }
        if (plain) {
            out.append(out.length() == 0 ? "" : ".").append(names, start, length);
            return;
        }
        out.append("[\"");
        for (int i = start; i < start + length; i++) {
            char c = names[i];
            if (c == '"' || c == '\\') {
                out.append('\\').append(c);
            } else if (c < 0x20) {
                out.append(String.format("\\u%04x", (int) c));
            } else {
                out.append(c);
            }
        }
        out.append("\"]");
    }
}
