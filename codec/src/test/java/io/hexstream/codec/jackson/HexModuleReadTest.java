package io.hexstream.codec.jackson;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.util.JsonParserDelegate;
import com.fasterxml.jackson.databind.DatabindException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.annotation.JsonDeserialize;
import com.fasterxml.jackson.databind.exc.InvalidFormatException;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.Writer;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import org.apache.tuweni.bytes.Bytes;
import org.apache.tuweni.bytes.Bytes32;
import org.apache.tuweni.bytes.Bytes48;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@link HexModule} and {@link HexDeserializer} reading against {@link HexFormat} and tuweni's
 * {@code Bytes.fromHexString}, through every way a mapper reads: {@code readValue(byte[])},
 * {@code readValue(InputStream)}, {@code readValue(String)}, and a tree ({@code readTree}, then {@code treeToValue}).
 */
class HexModuleReadTest {
    private static final ObjectMapper HEX = new ObjectMapper().registerModule(new HexModule());

    /** A {@code BlobAndProofV2}-like record of tuweni values. */
    public record BlobAndProofs(Bytes blob, Bytes32 hash, List<Bytes48> proofs) {}

    /** {@code byte[]} fields marked for {@link HexDeserializer}. */
    public static final class RawFields {
        @JsonDeserialize(using = HexDeserializer.class)
        public byte[] blob;

        @JsonDeserialize(contentUsing = HexDeserializer.class)
        public List<byte[]> proofs;
    }

    public record One(Bytes value) {}

    public record One32(Bytes32 value) {}

    public record One48(Bytes48 value) {}

    public static final class OneRaw {
        @JsonDeserialize(using = HexDeserializer.class)
        public byte[] value;
    }

    private interface Read {
        <T> T read(ObjectMapper mapper, String json, Class<T> type) throws IOException;
    }

    /** Every way of reading, named. */
    private static final List<Object[]> READS = List.of(
            new Object[] {
                "readValue(byte[])",
                (Read) new Read() {
                    public <T> T read(ObjectMapper m, String json, Class<T> type) throws IOException {
                        return m.readValue(json.getBytes(StandardCharsets.UTF_8), type);
                    }
                }
            },
            new Object[] {
                "readValue(InputStream)",
                (Read) new Read() {
                    public <T> T read(ObjectMapper m, String json, Class<T> type) throws IOException {
                        return m.readValue(new ByteArrayInputStream(json.getBytes(StandardCharsets.UTF_8)), type);
                    }
                }
            },
            new Object[] {
                "readValue(String)",
                (Read) new Read() {
                    public <T> T read(ObjectMapper m, String json, Class<T> type) throws IOException {
                        return m.readValue(json, type);
                    }
                }
            },
            new Object[] {
                "treeToValue",
                (Read) new Read() {
                    public <T> T read(ObjectMapper m, String json, Class<T> type) throws IOException {
                        return m.treeToValue(m.readTree(json.getBytes(StandardCharsets.UTF_8)), type);
                    }
                }
            });

    private static byte[] random(Random random, int n) {
        byte[] b = new byte[n];
        random.nextBytes(b);
        return b;
    }

    /** Hex by {@link HexFormat}, every other value in uppercase digits. */
    private static String hex(byte[] b, boolean upper) {
        return "0x" + (upper ? HexFormat.of().withUpperCase() : HexFormat.of()).formatHex(b);
    }

    @Test
    void tuweniValuesAsHexFormatWroteThem() throws IOException {
        Random random = new Random(2323);
        for (int size : new int[] {0, 1, 31, 4000, 65_535, 65_536, 131_072}) {
            byte[] blob = random(random, size);
            byte[] hash = random(random, 32);
            List<byte[]> proofs = new ArrayList<>();
            StringBuilder json = new StringBuilder(
                    "{\"blob\":\"" + hex(blob, size % 2 == 1) + "\",\"hash\":\"" + hex(hash, true) + "\",\"proofs\":[");
            for (int p = 0; p < 128; p++) {
                proofs.add(random(random, 48));
                json.append(p == 0 ? "" : ",")
                        .append('"')
                        .append(hex(proofs.get(p), p % 3 == 0))
                        .append('"');
            }
            String text = json.append("]}").toString();
            for (Object[] read : READS) {
                String how = read[0] + ", " + size + " bytes";
                BlobAndProofs value = ((Read) read[1]).read(HEX, text, BlobAndProofs.class);
                assertArrayEquals(blob, value.blob().toArrayUnsafe(), how);
                assertEquals(Bytes.fromHexString(hex(blob, false)), value.blob(), how);
                assertArrayEquals(hash, value.hash().toArrayUnsafe(), how);
                assertEquals(128, value.proofs().size(), how);
                for (int p = 0; p < 128; p++) {
                    assertArrayEquals(proofs.get(p), value.proofs().get(p).toArrayUnsafe(), how);
                }
                RawFields raw = ((Read) read[1])
                        .read(HEX, text.replace("\"hash\":\"" + hex(hash, true) + "\",", ""), RawFields.class);
                assertArrayEquals(blob, raw.blob, how);
                for (int p = 0; p < 128; p++) {
                    assertArrayEquals(proofs.get(p), raw.proofs.get(p), how);
                }
            }
        }
    }

    @Test
    void nullIsNullAndByteArraysNeedNoTuweni() throws IOException {
        for (Object[] read : READS) {
            assertNull(((Read) read[1]).read(HEX, "{\"value\":null}", One.class).value());
            assertNull(((Read) read[1]).read(new ObjectMapper(), "{\"value\":null}", OneRaw.class).value);
            assertArrayEquals(
                    new byte[] {0, (byte) 0xab},
                    ((Read) read[1]).read(new ObjectMapper(), "{\"value\":\"0x00aB\"}", OneRaw.class).value);
        }
    }

    /** The characters of a value handed to the sink in pieces of {@code piece}, as a parser may. */
    private static final class Pieces extends JsonParserDelegate {
        private final int piece;

        Pieces(JsonParser p, int piece) {
            super(p);
            this.piece = piece;
        }

        @Override
        public int getText(Writer writer) throws IOException {
            char[] text = getText().toCharArray();
            for (int i = 0; i < text.length; i += piece) {
                writer.write(text, i, Math.min(piece, text.length - i));
            }
            return text.length;
        }
    }

    @Test
    void valuesSplitAnywhereBetweenPieces() throws IOException {
        byte[] bytes = random(new Random(7), 300);
        String json = "{\"value\":\"" + hex(bytes, false) + "\"}";
        for (int piece = 1; piece <= 80; piece++) {
            JsonParser p = new Pieces(HEX.createParser(json), piece);
            assertArrayEquals(bytes, HEX.readValue(p, One.class).value().toArrayUnsafe(), "pieces of " + piece);
            JsonParser bad = new Pieces(HEX.createParser(json.replace("\"}", "g\"}")), piece);
            InvalidFormatException e = assertThrows(InvalidFormatException.class, () -> HEX.readValue(bad, One.class));
            assertTrue(
                    e.getMessage().contains("expected an even number of hex digits after 0x, got 601"), e.getMessage());
            char[] text = json.toCharArray();
            text[10 + 2 + 2 * piece + 1] = 'G'; // a low digit, in the second piece or later
            JsonParser badDigit = new Pieces(HEX.createParser(new String(text)), piece);
            e = assertThrows(InvalidFormatException.class, () -> HEX.readValue(badDigit, One.class));
            assertTrue(
                    e.getMessage().contains("invalid hex character 'G' at index " + (2 + 2 * piece + 1)),
                    e.getMessage());
        }
    }

    @ParameterizedTest(name = "[{index}] {1}")
    @CsvSource(
            delimiter = '|',
            value = {
                "''        | expected 0x prefix, but the text has 0 characters",
                "'0'       | expected 0x prefix, but the text has 1 character",
                "'00'      | expected 'x' of the 0x prefix at index 1, found '0'",
                "'ab12'    | expected '0' of the 0x prefix at index 0, found 'a'",
                "'0X12'    | expected 'x' of the 0x prefix at index 1, found 'X'",
                "'0x123'   | expected an even number of hex digits after 0x, got 3",
                "'0x00g0'  | invalid hex character 'g' at index 4",
                "'0x00 0'  | invalid hex character ' ' at index 4",
                "'0x0\\u00e9' | invalid hex character U+00E9 at index 3",
            })
    void malformedValuesNameTheirFaultAndPath(String text, String message) throws IOException {
        String json = "{\"value\":\"" + text + "\"}";
        for (Object[] read : READS) {
            for (Class<?> type : new Class<?>[] {One.class, OneRaw.class}) {
                InvalidFormatException e = assertThrows(
                        InvalidFormatException.class,
                        () -> ((Read) read[1]).read(HEX, json, type),
                        read[0] + " " + type);
                String target = type == One.class ? Bytes.class.getName() : "[B";
                assertTrue(
                        e.getMessage().startsWith("Cannot read `" + target + "` from DATA at \"/value\": " + message),
                        read[0] + ": " + e.getMessage());
                assertTrue(e.getMessage().contains("[\"value\"]"), "reference chain: " + e.getMessage());
            }
        }
    }

    @Test
    void bytes32AndBytes48HaveTheirSize() throws IOException {
        String[] sizes = {"0x", "0x" + "ab".repeat(31), "0x" + "ab".repeat(33), "0x" + "ab".repeat(48)};
        for (Object[] read : READS) {
            Read r = (Read) read[1];
            assertEquals(
                    Bytes32.fromHexString("ab".repeat(32)),
                    r.read(HEX, "{\"value\":\"0x" + "aB".repeat(32) + "\"}", One32.class)
                            .value());
            assertEquals(
                    Bytes48.fromHexString("cd".repeat(48)),
                    r.read(HEX, "{\"value\":\"0x" + "Cd".repeat(48) + "\"}", One48.class)
                            .value());
            for (String wrong : sizes) {
                String json = "{\"value\":\"" + wrong + "\"}";
                InvalidFormatException e32 =
                        assertThrows(InvalidFormatException.class, () -> r.read(HEX, json, One32.class));
                assertTrue(
                        e32.getMessage()
                                .contains(": expected 32 bytes (66 characters with 0x), got " + wrong.length()
                                        + " characters"),
                        read[0] + ": " + e32.getMessage());
                if (wrong.length() != 98) {
                    InvalidFormatException e48 =
                            assertThrows(InvalidFormatException.class, () -> r.read(HEX, json, One48.class));
                    assertTrue(
                            e48.getMessage()
                                    .contains(": expected 48 bytes (98 characters with 0x), got " + wrong.length()
                                            + " characters"),
                            read[0] + ": " + e48.getMessage());
                }
            }
        }
    }

    @Test
    void aBadDigitDeepInABlobNamesItsIndexAndPath() throws IOException {
        char[] digits = hex(random(new Random(9), 131_072), false).toCharArray();
        digits[200_001] = 'z';
        String json = "{\"blob\":\"0x\",\"hash\":\"0x" + "00".repeat(32) + "\",\"proofs\":[\"0x" + "00".repeat(48)
                + "\",\"" + new String(digits) + "\"]}";
        for (Object[] read : READS) {
            InvalidFormatException e = assertThrows(
                    InvalidFormatException.class, () -> ((Read) read[1]).read(HEX, json, BlobAndProofs.class));
            assertTrue(
                    e.getMessage()
                            .startsWith("Cannot read `" + Bytes48.class.getName()
                                    + "` from DATA at \"/proofs/1\": expected 48 bytes"),
                    read[0] + ": " + e.getMessage());
            InvalidFormatException raw = assertThrows(
                    InvalidFormatException.class,
                    () -> ((Read) read[1])
                            .read(HEX, json.replace("\"hash\":\"0x" + "00".repeat(32) + "\",", ""), RawFields.class));
            assertTrue(
                    raw.getMessage()
                            .startsWith(
                                    "Cannot read `[B` from DATA at \"/proofs/1\": invalid hex character 'z' at index 200001"),
                    read[0] + ": " + raw.getMessage());
            assertTrue(raw.getMessage().contains("[\"proofs\"]->java.util.ArrayList[1]"), raw.getMessage());
        }
    }

    @Test
    void otherTokensAreMismatchedInput() throws IOException {
        for (String token : new String[] {"1", "1.5", "true", "[]", "{}", "[\"0x00\"]"}) {
            for (Object[] read : READS) {
                for (Class<?> type : new Class<?>[] {One.class, One32.class, One48.class, OneRaw.class}) {
                    DatabindException e = assertThrows(
                            MismatchedInputException.class,
                            () -> ((Read) read[1]).read(HEX, "{\"value\":" + token + "}", type));
                    assertTrue(e.getMessage().startsWith("Cannot deserialize value of type `"), e.getMessage());
                    assertTrue(!(e instanceof InvalidFormatException), e.getMessage());
                }
            }
        }
    }

    /** The module on a class path without tuweni: it loads, registers, and reads {@code byte[]} fields. */
    @Test
    void theModuleLoadsWithoutTuweni() throws Exception {
        List<URL> urls = new ArrayList<>();
        for (Class<?> c : new Class<?>[] {
            HexModule.class,
            ObjectMapper.class,
            JsonParser.class,
            com.fasterxml.jackson.annotation.JsonProperty.class,
            io.netty.buffer.ByteBuf.class,
            io.netty.util.concurrent.FastThreadLocal.class
        }) {
            urls.add(c.getProtectionDomain().getCodeSource().getLocation());
        }
        try (URLClassLoader loader =
                new URLClassLoader(urls.toArray(URL[]::new), ClassLoader.getPlatformClassLoader())) {
            assertThrows(ClassNotFoundException.class, () -> loader.loadClass(Bytes.class.getName()));
            Object mapper = loader.loadClass(ObjectMapper.class.getName())
                    .getConstructor()
                    .newInstance();
            Class<?> moduleType = loader.loadClass("com.fasterxml.jackson.databind.Module");
            Object module =
                    loader.loadClass(HexModule.class.getName()).getConstructor().newInstance();
            mapper.getClass().getMethod("registerModule", moduleType).invoke(mapper, module);
            Object deserializer = loader.loadClass(HexDeserializer.class.getName())
                    .getConstructor()
                    .newInstance();
            Object simple = loader.loadClass("com.fasterxml.jackson.databind.module.SimpleModule")
                    .getConstructor()
                    .newInstance();
            simple.getClass()
                    .getMethod(
                            "addDeserializer",
                            Class.class,
                            loader.loadClass("com.fasterxml.jackson.databind.JsonDeserializer"))
                    .invoke(simple, byte[].class, deserializer);
            mapper.getClass().getMethod("registerModule", moduleType).invoke(mapper, simple);
            Object value = mapper.getClass()
                    .getMethod("readValue", byte[].class, Class.class)
                    .invoke(mapper, "\"0x00ff\"".getBytes(StandardCharsets.US_ASCII), byte[].class);
            assertArrayEquals(new byte[] {0, (byte) 0xff}, (byte[]) value);
        }
    }
}
