package io.hexstream.codec.jackson;

import com.fasterxml.jackson.databind.module.SimpleModule;

/**
 * A Jackson module that serialises tuweni {@code org.apache.tuweni.bytes.Bytes} and every subtype
 * ({@code Bytes32}, {@code Bytes48}, …) as the JSON string {@code "0x…"}: lowercase hex, two digits per
 * byte, {@code "0x"} for empty bytes; the same text as tuweni's {@code toHexString()} and Besu's
 * {@code toFastHex}, without making it a {@code String} when the generator is byte-based (see
 * {@link HexSerializer}).
 *
 * <pre>
 * ObjectMapper mapper = new ObjectMapper().registerModule(new HexModule());
 * </pre>
 *
 * <p>The {@code Bytes} serializer is registered only when tuweni-bytes is on the class path (either
 * {@code org.apache.tuweni} or Besu's {@code io.consensys.tuweni}, which share the package); without it
 * the module registers nothing and {@link HexSerializer} still serves {@code byte[]} fields.
 */
public final class HexModule extends SimpleModule {
    private static final long serialVersionUID = 1L;

    /** The module; also found by {@code ObjectMapper.findAndRegisterModules()}. */
    public HexModule() {
        super("hexstream-hex");
        if (tuweniPresent()) {
            addSerializer(new BytesSerializer());
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
