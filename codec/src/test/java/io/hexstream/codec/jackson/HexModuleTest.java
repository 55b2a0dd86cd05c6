package io.hexstream.codec.jackson;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.annotation.JsonSerialize;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.databind.ser.std.StdSerializer;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.tuweni.bytes.Bytes;
import org.apache.tuweni.bytes.Bytes32;
import org.apache.tuweni.bytes.Bytes48;
import org.junit.jupiter.api.Test;

/**
 * {@link HexModule} and {@link HexSerializer} against Besu's path: the same documents with every value as a
 * {@code toHexString()} {@code String} (tuweni's {@code toFastHex}, which Besu's {@code HexUtils.toFastHex}
 * reproduces), and with Besu's {@code BytesJson} serializer ({@code gen.writeString(value.toString())}). Byte for byte,
 * through every write method.
 */
class HexModuleTest {
    private static final ObjectMapper HEX = new ObjectMapper().registerModule(new HexModule());
    /** Besu's {@code BytesJson.Serializer}: {@code gen.writeString(value.toString())}. */
    private static final ObjectMapper BESU_BYTES_JSON = new ObjectMapper()
            .registerModule(new SimpleModule().addSerializer(new StdSerializer<Bytes>(Bytes.class) {
                @Override
                public void serialize(Bytes value, JsonGenerator gen, SerializerProvider provider) throws IOException {
                    gen.writeString(value.toString());
                }
            }));

    private static final ObjectMapper PLAIN = new ObjectMapper();

    /** A {@code BlobAndProofV2}-like POJO of tuweni values. */
    public static final class BlobAndProofs {
        public Bytes blob;
        public Bytes32 hash;
        public List<Bytes48> proofs;
        public Map<String, Bytes> extra;
    }

    /** The same POJO as Besu builds it today: every value a hex {@code String}. */
    public static final class BlobAndProofsStrings {
        public String blob;
        public String hash;
        public List<String> proofs;
        public Map<String, String> extra;
    }

    /** {@code byte[]} fields marked for {@link HexSerializer}. */
    public static final class RawFields {
        @JsonSerialize(using = HexSerializer.class)
        public byte[] blob;

        @JsonSerialize(using = HexSerializer.class)
        public byte[] empty;

        @JsonSerialize(contentUsing = HexSerializer.class)
        public List<byte[]> proofs;
    }

    public static final class RawFieldsStrings {
        public String blob;
        public String empty;
        public List<String> proofs;
    }

    private static final Random RANDOM = new Random(12);

    private static byte[] random(int n) {
        byte[] b = new byte[n];
        RANDOM.nextBytes(b);
        return b;
    }

    private static BlobAndProofs pojo(int blobSize, int proofs) {
        BlobAndProofs p = new BlobAndProofs();
        p.blob = Bytes.wrap(random(blobSize));
        p.hash = Bytes32.wrap(random(32));
        p.proofs = new ArrayList<>();
        for (int i = 0; i < proofs; i++) {
            p.proofs.add(Bytes48.wrap(random(48)));
        }
        p.extra = new LinkedHashMap<>();
        p.extra.put("empty", Bytes.EMPTY);
        p.extra.put("slice", Bytes.wrap(random(40), 3, 17));
        p.extra.put("odd", Bytes.of(0, 1, 0xab, 0xff));
        return p;
    }

    private static BlobAndProofsStrings strings(BlobAndProofs p) {
        BlobAndProofsStrings s = new BlobAndProofsStrings();
        s.blob = p.blob.toHexString();
        s.hash = p.hash.toHexString();
        s.proofs = p.proofs.stream().map(Bytes::toHexString).toList();
        s.extra = new LinkedHashMap<>();
        p.extra.forEach((k, v) -> s.extra.put(k, v.toHexString()));
        return s;
    }

    /** Every write method gives {@code expected}'s bytes, and the tree of the value writes them too. */
    private static void assertSameEverywhere(byte[] expected, ObjectMapper mapper, Object value) throws IOException {
        assertArrayEquals(expected, mapper.writeValueAsBytes(value), "writeValueAsBytes");
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        mapper.writeValue(out, value);
        assertArrayEquals(expected, out.toByteArray(), "writeValue(OutputStream)");
        assertEquals(
                new String(expected, StandardCharsets.UTF_8), mapper.writeValueAsString(value), "writeValueAsString");
        JsonNode tree = mapper.valueToTree(value);
        assertArrayEquals(expected, mapper.writeValueAsBytes(tree), "valueToTree");
    }

    @Test
    void bytesOfEveryShapeAsBesuWritesThem() throws IOException {
        for (int size : new int[] {0, 1, 31, 256, 257, 131_072}) {
            BlobAndProofs p = pojo(size, size == 0 ? 0 : 128);
            byte[] expected = PLAIN.writeValueAsBytes(strings(p));
            assertSameEverywhere(expected, HEX, p);
            assertArrayEquals(expected, BESU_BYTES_JSON.writeValueAsBytes(p), "Besu's BytesJson path");
        }
    }

    @Test
    void listsMapsAndTopLevelValues() throws IOException {
        Bytes48 proof = Bytes48.wrap(random(48));
        List<Bytes> list = List.of(Bytes.EMPTY, Bytes32.ZERO, proof, Bytes.wrap(random(1000)));
        assertSameEverywhere(
                PLAIN.writeValueAsBytes(list.stream().map(Bytes::toHexString).toList()), HEX, list);
        Map<String, Object> map = new LinkedHashMap<>();
        map.put("a", proof);
        map.put("b", List.of(Bytes.of(1), Bytes.EMPTY));
        map.put("n", 7);
        assertEquals(
                "{\"a\":\"" + proof.toHexString() + "\",\"b\":[\"0x01\",\"0x\"],\"n\":7}", HEX.writeValueAsString(map));
        assertSameEverywhere(HEX.writeValueAsString(map).getBytes(StandardCharsets.UTF_8), HEX, map);
        assertSameEverywhere("\"0xff00\"".getBytes(StandardCharsets.US_ASCII), HEX, Bytes.of(0xff, 0));
    }

    @Test
    void byteArrayFieldsWithHexSerializer() throws IOException {
        RawFields raw = new RawFields();
        raw.blob = random(131_072);
        raw.empty = new byte[0];
        raw.proofs = List.of(random(48), random(48));
        RawFieldsStrings s = new RawFieldsStrings();
        s.blob = Bytes.wrap(raw.blob).toHexString();
        s.empty = "0x";
        s.proofs = raw.proofs.stream().map(b -> Bytes.wrap(b).toHexString()).toList();
        assertSameEverywhere(PLAIN.writeValueAsBytes(s), PLAIN, raw);
    }

    @Test
    void valuesLongerThanTheScratchAreStreamed() throws IOException {
        Bytes big = Bytes.wrap(random(HexWriter.SCRATCH_MAX));
        Map<String, Object> doc = new LinkedHashMap<>();
        doc.put("before", 1);
        doc.put("big", big);
        doc.put("after", List.of(big, Bytes.of(2)));
        Map<String, Object> strings = new LinkedHashMap<>();
        strings.put("before", 1);
        strings.put("big", big.toHexString());
        strings.put("after", List.of(big.toHexString(), "0x02"));
        assertSameEverywhere(PLAIN.writeValueAsBytes(strings), HEX, doc);
    }

    @Test
    void theModuleIsFoundByServiceLoading() throws IOException {
        ObjectMapper found = new ObjectMapper().findAndRegisterModules();
        assertEquals("\"0x0102\"", found.writeValueAsString(Bytes.of(1, 2)));
        assertTrue(found.getRegisteredModuleIds().contains("hexstream-hex"));
    }
}
