package io.hexstream.codec.jackson;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.deser.std.StdScalarDeserializer;
import java.io.IOException;

/**
 * Reads a {@code byte[]} from the JSON string {@code "0x…"}, the Engine API's {@code DATA} (execution-apis
 * {@code src/engine/common.md}, "Encoding"): {@code 0x}, then an even number of digits {@code [0-9a-fA-F]}, two per
 * byte, nothing else; {@code "0x"} is an empty array. Instead of Jackson's default Base64. Mark a field with it:
 *
 * <pre>
 * &#64;JsonDeserialize(using = HexDeserializer.class)
 * public byte[] blob;
 * &#64;JsonDeserialize(contentUsing = HexDeserializer.class)
 * public List&lt;byte[]&gt; proofs;
 * </pre>
 *
 * <p>From a streaming parser ({@code readValue(InputStream)}, {@code readValue(byte[])}) the digits are decoded from
 * the parser's text buffer into the new array, without a {@code String} or a {@code char[]} of the value; from a tree
 * ({@code treeToValue}) from the {@code String} the tree holds. What each costs is in {@code HexReader}.
 *
 * <p>Errors: a JSON {@code null} gives {@code null}, as for any reference; another token than a string a
 * {@link com.fasterxml.jackson.databind.exc.MismatchedInputException}; a string that is not {@code DATA} an
 * {@link com.fasterxml.jackson.databind.exc.InvalidFormatException} whose message is
 * {@link io.hexstream.codec.HexDecoder}'s (no prefix, odd digit count, invalid character and its index) with the
 * value's JSON pointer, then Jackson's location and reference chain. Needs only {@code jackson-databind}.
 */
public final class HexDeserializer extends StdScalarDeserializer<byte[]> {
    private static final long serialVersionUID = 1L;

    /** The deserializer; Jackson instantiates it for {@code @JsonDeserialize(using = HexDeserializer.class)}. */
    public HexDeserializer() {
        super(byte[].class);
    }

    @Override
    public byte[] deserialize(JsonParser p, DeserializationContext ctxt) throws IOException {
        if (!p.hasToken(JsonToken.VALUE_STRING)) {
            return (byte[]) ctxt.handleUnexpectedToken(byte[].class, p);
        }
        return HexReader.read(p, -1, byte[].class);
    }
}
