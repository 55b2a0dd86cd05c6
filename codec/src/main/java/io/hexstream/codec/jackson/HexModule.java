package io.hexstream.codec.jackson;

import com.fasterxml.jackson.databind.module.SimpleModule;
import org.apache.tuweni.bytes.Bytes;
import org.apache.tuweni.bytes.Bytes32;
import org.apache.tuweni.bytes.Bytes48;

/**
 * A Jackson module that writes and reads tuweni {@code Bytes} as the JSON string {@code "0x…"}, the Engine API's
 * {@code DATA}.
 *
 * <p>Writing: {@code Bytes} and every subtype ({@code Bytes32}, {@code Bytes48}, …) as lowercase hex, two digits per
 * byte, {@code "0x"} for empty bytes; the same text as tuweni's {@code toHexString()} and Besu's {@code toFastHex},
 * without making it a {@code String} when the generator is byte-based (see {@link HexSerializer}).
 *
 * <p>Reading: {@code Bytes}, {@code Bytes32} and {@code Bytes48} (a field's declared type, exactly), strictly:
 * {@code 0x}, then an even number of digits {@code [0-9a-fA-F]}, 64 of them for a {@code Bytes32}, 96 for a
 * {@code Bytes48}; errors and what each parser costs as {@link HexDeserializer}, which serves {@code byte[]} fields.
 * The value wraps the decoded array.
 *
 * <pre>
 * ObjectMapper mapper = new ObjectMapper().registerModule(new HexModule());
 * </pre>
 *
 * <p>The {@code Bytes} serializer and deserializers are registered only when tuweni-bytes is on the class path (either
 * {@code org.apache.tuweni} or Besu's {@code io.consensys.tuweni}, which share the package); without it the module
 * registers nothing, and {@link HexSerializer} and {@link HexDeserializer} still serve {@code byte[]} fields.
 */
public final class HexModule extends SimpleModule {
    private static final long serialVersionUID = 1L;

    /** The module; also found by {@code ObjectMapper.findAndRegisterModules()}. */
    public HexModule() {
        super("hexstream-hex");
        if (tuweniPresent()) {
            addSerializer(new BytesSerializer());
            addDeserializer(Bytes.class, BytesDeserializer.BYTES);
            addDeserializer(Bytes32.class, BytesDeserializer.BYTES32);
            addDeserializer(Bytes48.class, BytesDeserializer.BYTES48);
        }
    }

    private static boolean tuweniPresent() {
        try {
            Class.forName("org.apache.tuweni.bytes.Bytes", false, HexModule.class.getClassLoader());
            return true;
        } catch (ClassNotFoundException e) {
            return false;
        }
    }
}
