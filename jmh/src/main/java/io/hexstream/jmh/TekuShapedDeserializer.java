package io.hexstream.jmh;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.JsonDeserializer;
import java.io.IOException;
import java.util.Arrays;
import org.apache.tuweni.bytes.Bytes;
import org.apache.tuweni.bytes.Bytes48;

/**
 * A hex deserializer doing what Teku's engine client's does, written here as a baseline for the benchmarks: Teku's
 * {@code serialization/AbstractBytesDeserializer.java}, {@code BytesDeserializer.java} and
 * {@code Bytes48Deserializer.java} (in
 * {@code ethereum/executionclient/src/main/java/tech/pegasys/teku/ethereum/executionclient/}, Consensys/teku commit
 * {@value GetBlobsResponseReadBenchmark#TEKU_COMMIT}). The value's characters from
 * {@link JsonParser#getTextCharacters()} with {@code getTextOffset()} and {@code getTextLength()} (else
 * {@code getValueAsString().toCharArray()}), an optional {@code 0x}/{@code 0X} prefix, an odd count refused, a new
 * {@code byte[]} of half the digits, each digit looked up in a 128-entry {@code int} table and checked, then the array
 * wrapped ({@code Bytes.wrap}, {@code Bytes48.wrap}).
 *
 * @param <T> the value read
 */
public abstract class TekuShapedDeserializer<T> extends JsonDeserializer<T> {
    /** A character's digit value, {@code -1} for anything else. */
    private static final int[] DIGITS = new int[128];

    static {
        Arrays.fill(DIGITS, -1);
        for (int d = 0; d < 10; d++) {
            DIGITS['0' + d] = d;
        }
        for (int d = 0; d < 6; d++) {
            DIGITS['a' + d] = 10 + d;
            DIGITS['A' + d] = 10 + d;
        }
    }

    /** Wraps the decoded array. */
    abstract T wrap(byte[] bytes);

    @Override
    public final T deserialize(JsonParser p, DeserializationContext ctxt) throws IOException {
        char[] text = p.getTextCharacters();
        if (text != null) {
            return wrap(decode(text, p.getTextOffset(), p.getTextLength()));
        }
        String value = p.getValueAsString();
        return wrap(decode(value.toCharArray(), 0, value.length()));
    }

    private static byte[] decode(char[] text, int offset, int length) {
        int at = offset;
        int end = offset + length;
        if (length >= 2 && text[at] == '0' && (text[at + 1] == 'x' || text[at + 1] == 'X')) {
            at += 2;
        }
        if (((end - at) & 1) != 0) {
            throw new IllegalArgumentException("odd number of hex digits");
        }
        byte[] out = new byte[(end - at) / 2];
        for (int o = 0; o < out.length; o++) {
            int high = digit(text[at++]);
            if (high < 0) {
                throw invalid(at - 1, text[at - 1]);
            }
            int low = digit(text[at++]);
            if (low < 0) {
                throw invalid(at - 1, text[at - 1]);
            }
            out[o] = (byte) (high << 4 | low);
        }
        return out;
    }

    private static IllegalArgumentException invalid(int at, char c) {
        return new IllegalArgumentException("invalid hex character at " + at + ": '" + c + "'");
    }

    private static int digit(char c) {
        return c < DIGITS.length ? DIGITS[c] : -1;
    }

    /** Teku's {@code BytesDeserializer}: the blob. */
    public static final class BytesOf extends TekuShapedDeserializer<Bytes> {
        @Override
        Bytes wrap(byte[] bytes) {
            return Bytes.wrap(bytes);
        }
    }

    /** Teku's {@code Bytes48Deserializer}: a proof. */
    public static final class Bytes48Of extends TekuShapedDeserializer<Bytes48> {
        @Override
        Bytes48 wrap(byte[] bytes) {
            return Bytes48.wrap(bytes);
        }
    }
}
