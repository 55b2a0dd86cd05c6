package io.hexstream.jmh;

import com.fasterxml.jackson.annotation.JsonGetter;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.annotation.JsonRawValue;
import com.fasterxml.jackson.annotation.JsonValue;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectWriter;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.databind.ser.std.StdSerializer;
import io.hexstream.client.BlobSizes;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.tuweni.bytes.Bytes;
import org.apache.tuweni.bytes.Bytes48;

/**
 * Besu main's way to a getBlobsV2 (and getPayload blobs bundle) response: the method maps the pool's values to result
 * objects one after another, with no hex, and Jackson writes the hex while it writes the reply. Read at besu-eth/besu
 * after #11174 ("Refactor engine_getBlobsV* into a sealed version hierarchy") and #11204 ("Complete refactor of
 * engine_getBlobsV* methods": serialisation left to Jackson, the {@code parallelStream}s removed), in
 * {@code ethereum/api/src/main/java/org/hyperledger/besu/ethereum/api/jsonrpc/internal/}:
 *
 * <ul>
 *   <li>{@code methods/engine/EngineGetBlobsV2.java}: {@code fetchedBlobsData(...).blobProofBundles().stream()
 *       .map(this::getVersionSpecificBlobAndProofResult).toList()}, a {@code new BlobAndProofV2(blobProofBundle)} per
 *       blob ({@link #results});
 *   <li>{@code results/BlobAndProofV2.java}: the bundle's {@code Blob} and {@code List<KZGProof>} held as they are,
 *       {@code blob} then {@code proofs} ({@link BlobAndProofV2});
 *   <li>{@code ethereum/core/.../core/kzg/Blob.java}, {@code KZGProof.java}, {@code KZGCommitment.java}: each a
 *       {@code @JsonValue} getter of its tuweni {@code Bytes} / {@code Bytes48} ({@link Blob}, {@link KzgValue});
 *   <li>{@code ethereum/core/.../core/json/BesuJsonModule.java}, registered by {@code JsonRpcObjectMapperFactory}:
 *       {@code BytesJson.Serializer}, {@code gen.writeString(value.toString())}, and {@code Bytes48Json.Serializer},
 *       {@code gen.writeString(value.toHexString())}: both tuweni's {@code Bytes.toFastHex(true)}, a {@code char[]}
 *       filled a byte at a time through {@code get(i)}, then a {@code String} ({@link #writer});
 *   <li>{@code ethereum/api/.../handlers/JsonRpcObjectExecutor.java}: {@code ObjectWriter.writeValue} of the whole
 *       response into {@code JsonResponseStreamer} ({@link BesuResponseStream}), without
 *       {@code FLUSH_PASSED_TO_STREAM}, with {@code AUTO_CLOSE_TARGET}.
 * </ul>
 *
 * The newest commit of besu-eth/besu read whole is {@code 683880baa609111e6fee47ef1122dce7a76a154b} (2026-08-21:
 * {@code JsonRpcObjectExecutor}, {@code JsonResponseStreamer}, {@code BesuJsonModule}, {@code Blob}, {@code KZGProof},
 * {@code KZGCommitment}, unchanged by the two pull requests); the getBlobs files after them at besu-eth/besu
 * {@code 73f7360e72dcae6c73bcfe7ea7778ad8f9abe73c} ({@code EngineGetBlobsV1}, {@code EngineGetBlobsV4}), and
 * {@code EngineGetBlobsV2}, {@code BlobAndProofV2} and {@code BlobsBundleV1} as forks carrying #11204 hold them
 * (pinges/besu {@code 9fa76b4f7ef6a6ed975a48515f558378a7a48dfc}, {@code 79717150456ce091369709211ca1bb8b49986ec5}). The
 * pool's values are made once per pooled blob ({@link BlobProofBundle#of}), as Besu's transaction pool holds them: each
 * proof its own 48-byte array, as KZG hands them over. A baseline for the benchmarks only.
 */
public final class BesuBlobsJson {
    private static final ObjectMapper MAPPER = new ObjectMapper()
            .registerModule(new SimpleModule("besu-json")
                    .addSerializer(new StdSerializer<Bytes>(Bytes.class) {
                        @Override
                        public void serialize(Bytes value, JsonGenerator gen, SerializerProvider provider)
                                throws IOException {
                            gen.writeString(value.toString());
                        }
                    })
                    .addSerializer(new StdSerializer<Bytes48>(Bytes48.class) {
                        @Override
                        public void serialize(Bytes48 value, JsonGenerator gen, SerializerProvider provider)
                                throws IOException {
                            gen.writeString(value.toHexString());
                        }
                    }));

    private BesuBlobsJson() {}

    /** Besu's JSON-RPC mapper: Jackson with its {@code BesuJsonModule}'s {@code Bytes} and {@code Bytes48}. */
    public static ObjectMapper mapper() {
        return MAPPER;
    }

    /** The writer {@code JsonRpcObjectExecutor} makes of that mapper. */
    public static ObjectWriter writer() {
        return MAPPER.writer()
                .without(JsonGenerator.Feature.FLUSH_PASSED_TO_STREAM)
                .with(JsonGenerator.Feature.AUTO_CLOSE_TARGET);
    }

    /** A JSON-RPC success response; {@code id} is the request's raw JSON token. */
    public record Response(String jsonrpc, @JsonRawValue String id, Object result) {}

    /** {@code core/kzg/Blob}: a blob's bytes, written as their {@code Bytes}. */
    public static final class Blob {
        private final Bytes data;

        public Blob(Bytes data) {
            this.data = data;
        }

        @JsonValue
        public Bytes getData() {
            return data;
        }
    }

    /** {@code core/kzg/KZGProof} and {@code KZGCommitment}: 48 bytes, written as their {@code Bytes48}. */
    public static final class KzgValue {
        private final Bytes48 data;

        public KzgValue(Bytes48 data) {
            this.data = data;
        }

        @JsonValue
        public Bytes48 getData() {
            return data;
        }
    }

    /**
     * A pooled blob as Besu's {@code BlobProofBundle} holds it.
     *
     * @param blob the blob
     * @param kzgProof its 128 cell proofs
     */
    public record BlobProofBundle(Blob blob, List<KzgValue> kzgProof) {
        /** {@code blob} and its {@code cellProofs} (128 × 48 bytes back to back), each proof copied out to its own. */
        public static BlobProofBundle of(byte[] blob, byte[] cellProofs) {
            List<KzgValue> proofs = new ArrayList<>(BlobSizes.CELLS_PER_EXT_BLOB);
            for (int p = 0; p < BlobSizes.CELLS_PER_EXT_BLOB; p++) {
                proofs.add(kzgValue(cellProofs, p * BlobSizes.PROOF_SIZE));
            }
            return new BlobProofBundle(new Blob(Bytes.wrap(blob)), List.copyOf(proofs));
        }
    }

    /** 48 bytes of {@code bytes} from {@code from}, copied, as a {@code KZGProof} or {@code KZGCommitment}. */
    public static KzgValue kzgValue(byte[] bytes, int from) {
        return new KzgValue(Bytes48.wrap(Arrays.copyOfRange(bytes, from, from + BlobSizes.PROOF_SIZE)));
    }

    /** {@code results/BlobAndProofV2}: the bundle's values, not encoded. */
    @JsonPropertyOrder({"blob", "proofs"})
    public static final class BlobAndProofV2 {
        private final Blob blob;
        private final List<KzgValue> proofs;

        public BlobAndProofV2(BlobProofBundle bundle) {
            this.blob = bundle.blob();
            this.proofs = bundle.kzgProof();
        }

        @JsonGetter("blob")
        public Blob getBlob() {
            return blob;
        }

        @JsonGetter("proofs")
        public List<KzgValue> getProofs() {
            return proofs;
        }
    }

    /** {@code EngineGetBlobsV2}'s result once every blob is found: one {@code BlobAndProofV2} per bundle, in order. */
    public static List<BlobAndProofV2> results(List<BlobProofBundle> bundles) {
        return bundles.stream().map(BlobAndProofV2::new).toList();
    }
}
