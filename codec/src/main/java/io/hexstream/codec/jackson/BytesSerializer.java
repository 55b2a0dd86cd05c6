package io.hexstream.codec.jackson;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.ser.std.StdSerializer;
import java.io.IOException;
import org.apache.tuweni.bytes.Bytes;

/**
 * Serialises tuweni {@link Bytes} (and {@code Bytes32}, {@code Bytes48}, every implementation) as {@code "0x…"},
 * lowercase, through one {@code toArrayUnsafe()} (no copy for array-backed values). Registered by {@link HexModule}
 * when tuweni is on the class path.
 */
final class BytesSerializer extends StdSerializer<Bytes> {
    private static final long serialVersionUID = 1L;

    BytesSerializer() {
        super(Bytes.class);
    }

    @Override
    public void serialize(Bytes value, JsonGenerator gen, SerializerProvider provider) throws IOException {
        byte[] array = value.toArrayUnsafe();
        HexWriter.write(array, 0, array.length, gen);
    }

    @Override
    public boolean isEmpty(SerializerProvider provider, Bytes value) {
        return value.isEmpty();
    }
}
