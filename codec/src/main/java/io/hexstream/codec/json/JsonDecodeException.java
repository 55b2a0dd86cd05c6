package io.hexstream.codec.json;

import java.util.Locale;

/**
 * Thrown by {@link JsonHexReader} when its input is not the JSON (RFC 8259) it expects: malformed JSON or UTF-8, a hex
 * value that is not strict {@code DATA} ({@code 0x}, an even number of digits {@code [0-9a-fA-F]}), a value longer or
 * shorter than its destination allows, a name, string or number longer than the reader's bound, nesting deeper than its
 * bound, or the end of input inside the value.
 *
 * <p>The message is one line, {@code <path>: <fault> at byte <offset>}, e.g. {@code result[3].proofs[17]: odd number of
 * hex digits at byte 4,194,311}; the path is left out (with its colon) at the top level.
 */
public final class JsonDecodeException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    private final String path;
    private final String fault;
    private final long offset;

    JsonDecodeException(String path, String fault, long offset) {
        super((path.isEmpty() ? "" : path + ": ") + fault + " at byte " + String.format(Locale.ROOT, "%,d", offset));
        this.path = path;
        this.fault = fault;
        this.offset = offset;
    }

    /** Where in the document: {@code result[3].proofs[17]}; empty at the top level. */
    public String path() {
        return path;
    }

    /** What is wrong, without path or offset: {@code odd number of hex digits}. */
    public String fault() {
        return fault;
    }

    /** The zero-based offset in the whole input of the offending byte (the input's length at its end). */
    public long offset() {
        return offset;
    }
}
