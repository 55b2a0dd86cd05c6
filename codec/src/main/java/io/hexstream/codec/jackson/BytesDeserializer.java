package io.hexstream.codec.jackson;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.deser.std.StdScalarDeserializer;
import java.io.IOException;
import org.apache.tuweni.bytes.Bytes;
import org.apache.tuweni.bytes.Bytes32;
import org.apache.tuweni.bytes.Bytes48;

/**
 * Reads tuweni {@link Bytes}, {@link Bytes32} or {@link Bytes48} from the JSON string {@code "0x…"} ({@code DATA},
 * rules and errors as {@link HexDeserializer}; a {@code Bytes32} must have 64 digits, a {@code Bytes48} 96), wrapping
 * the decoded array without a copy. Registered by {@link HexModule} when tuweni is on the class path.
 *
 * @param <T> {@code Bytes}, {@code Bytes32} or {@code Bytes48}
 */
final class BytesDeserializer<T extends Bytes> extends StdScalarDeserializer<T> {
    private static final long serialVersionUID = 1L;

    /** {@code Bytes}: any length. */
    static final BytesDeserializer<Bytes> BYTES = new BytesDeserializer<>(Bytes.class, -1);

    static final BytesDeserializer<Bytes32> BYTES32 = new BytesDeserializer<>(Bytes32.class, Bytes32.SIZE);
    static final BytesDeserializer<Bytes48> BYTES48 = new BytesDeserializer<>(Bytes48.class, Bytes48.SIZE);

    /** The byte count a value must have, or {@code -1} for any. */
    private final int size;

    private BytesDeserializer(Class<T> type, int size) {
        super(type);
        this.size = size;
    }

    @Override
    @SuppressWarnings("unchecked")
    public T deserialize(JsonParser p, DeserializationContext ctxt) throws IOException {
        if (!p.hasToken(JsonToken.VALUE_STRING)) {
            return (T) ctxt.handleUnexpectedToken(handledType(), p);
        }
        byte[] bytes = HexReader.read(p, size, handledType());
        return (T)
                switch (size) {
                    case Bytes32.SIZE -> Bytes32.wrap(bytes);
                    case Bytes48.SIZE -> Bytes48.wrap(bytes);
                    default -> Bytes.wrap(bytes);
                };
    }
}
