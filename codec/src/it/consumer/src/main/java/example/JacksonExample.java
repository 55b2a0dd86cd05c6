package example;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.annotation.JsonSerialize;
import io.hexstream.codec.jackson.HexModule;
import io.hexstream.codec.jackson.HexSerializer;
import java.util.List;
import org.apache.tuweni.bytes.Bytes;
import org.apache.tuweni.bytes.Bytes48;

/** Jackson: tuweni {@code Bytes} fields by the module, {@code byte[]} fields by the serializer. */
public final class JacksonExample {
    private JacksonExample() {}

    /** A {@code BlobAndProofV2} as Besu's result classes hold it. */
    public record BlobAndProofV2(Bytes blob, List<Bytes48> proofs) {}

    /** A {@code byte[]} field written as "0x…" rather than Base64. */
    public record Commitment(
            @JsonSerialize(using = HexSerializer.class) byte[] commitment) {}

    /** {@code result} as JSON bytes: {@code {"blob":"0x…","proofs":["0x…",…]}}. */
    public static byte[] blobJson(BlobAndProofV2 result) throws JsonProcessingException {
        ObjectMapper mapper = new ObjectMapper().registerModule(new HexModule()); // Bytes, Bytes32, Bytes48, …
        return mapper.writeValueAsBytes(result); // no hex String made
    }

    /** {@code value} as a JSON String: {@code {"commitment":"0x…"}}. */
    public static String commitmentJson(Commitment value) throws JsonProcessingException {
        return new ObjectMapper().writeValueAsString(value);
    }
}
