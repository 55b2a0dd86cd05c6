package io.hexstream.codec.jackson;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.ser.std.StdSerializer;
import java.io.IOException;

/**
 * Serialises a {@code byte[]} as the JSON string {@code "0x…"}: lowercase hex, two digits per byte ({@code "0x"} for an
 * empty array), instead of Jackson's default Base64. Mark a field with it:
 *
 * <pre>
 * &#64;JsonSerialize(using = HexSerializer.class)
 * public byte[] blob;
 * </pre>
 *
 * <p>With a byte-based generator ({@code writeValueAsBytes}, {@code writeValue(OutputStream)}) the digits are written
 * from a per-thread scratch of at most 512 KiB, never as a {@code String} or {@code char[]}; with a char-based one
 * ({@code writeValueAsString}) through a {@code String}, with the same output. Needs only {@code jackson-databind}.
 */
public final class HexSerializer extends StdSerializer<byte[]> {
    private static final long serialVersionUID = 1L;

    /** The serializer; Jackson instantiates it for {@code @JsonSerialize(using = HexSerializer.class)}. */
    public HexSerializer() {
        super(byte[].class);
    }

    @Override
    public void serialize(byte[] value, JsonGenerator gen, SerializerProvider provider) throws IOException {
        HexWriter.write(value, 0, value.length, gen);
    }

    @Override
    public boolean isEmpty(SerializerProvider provider, byte[] value) {
        return value.length == 0;
    }
}
