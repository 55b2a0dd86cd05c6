package io.hexstream.codec.jackson;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.exc.InvalidFormatException;
import io.hexstream.codec.HexDecoder;
import io.hexstream.codec.HexFormatException;
import java.io.IOException;

/**
 * Reads one JSON string value {@code "0x…"} (the Engine API's {@code DATA}, rules as {@link HexDecoder}) into a new
 * {@code byte[]} from any {@link JsonParser}, through {@link JsonParser#getText(java.io.Writer)}, which is the cheapest
 * way Jackson 2's public API gives a long string's characters:
 *
 * <ul>
 *   <li>a streaming parser ({@code readValue(InputStream)}, {@code readValue(byte[])}, {@code readValue(Reader)},
 *       {@code readValue(String)}) finishes the string into its {@code TextBuffer}, then writes the buffer's segments
 *       to the sink as they are, without joining them into one {@code char[]} or a {@code String}
 *       ({@link JsonParser#getTextCharacters()} would join them: {@code TextBuffer.contentsAsArray()}, a second copy of
 *       the text). What remains allocated per value, besides the decoded bytes, is Jackson's: the {@code TextBuffer}
 *       keeps one segment (at most 64 Ki {@code char}s) between values and allocates a new segment of up to 64 Ki
 *       {@code char}s (128 KiB) for each further 64 Ki characters of a value, so a 262,146-character blob costs four
 *       new segments, 512 KiB, and a value that fits in the kept segment (a 98-character cell proof, a 66-character
 *       hash) none. No public API reads a string's characters from the parser's input without its {@code TextBuffer}.
 *   <li>a parser over a tree or a {@code TokenBuffer} ({@code treeToValue}, {@code convertValue}) writes the
 *       {@code String} it already holds, decoded in 1 Ki-character pieces through this thread's sink; the
 *       {@code String} was made when the tree was built.
 * </ul>
 */
final class HexReader {
    private static final ThreadLocal<HexCharSink> SINKS = ThreadLocal.withInitial(HexCharSink::new);

    private HexReader() {}

    /**
     * Reads the current value, a string ({@link JsonToken#VALUE_STRING}; the caller has checked).
     *
     * @param expectedBytes the byte count the value must decode to, or a negative value for any
     * @param type the type being read, for errors
     * @return a new array of the value's bytes
     * @throws InvalidFormatException if the string is not {@code DATA} of that length: the message gives
     *     {@link HexDecoder}'s (the offending character and its index in the value, or the length fault) and the
     *     value's JSON pointer; Jackson adds the location and the reference chain
     */
    static byte[] read(JsonParser p, int expectedBytes, Class<?> type) throws IOException {
        try {
            return SINKS.get().decode(p, expectedBytes);
        } catch (HexFormatException e) {
            String pointer = p.getParsingContext().pathAsPointer().toString();
            throw InvalidFormatException.from(
                    p,
                    "Cannot read `" + type.getName() + "` from DATA at \"" + pointer + "\": " + e.getMessage(),
                    null,
                    type);
        }
    }
}
