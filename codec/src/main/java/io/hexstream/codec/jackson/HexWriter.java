package io.hexstream.codec.jackson;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.json.UTF8JsonGenerator;
import io.hexstream.codec.Hex;
import java.io.IOException;
import java.io.OutputStream;

/**
 * Writes bytes as one JSON string value {@code "0x…"} (lowercase, two digits per byte) to any {@link JsonGenerator}, by
 * the cheapest path the generator allows:
 *
 * <ul>
 *   <li>a byte-based generator ({@link UTF8JsonGenerator}: {@code writeValueAsBytes}, {@code writeValue(OutputStream)},
 *       {@code writeValue(File)}), up to {@link #SCRATCH_MAX} bytes of text: the digits go into a per-thread scratch
 *       array, then {@link JsonGenerator#writeRawUTF8String(byte[], int, int)} writes them as the value (no escaping
 *       needed; above 512 bytes Jackson hands the array straight to its {@code OutputStream});
 *   <li>a byte-based generator, longer values: the generator writes the separator and the opening {@code "0x}, is
 *       flushed, and the digits are streamed to its {@code OutputStream} through the same scratch, then the generator
 *       writes the closing quote;
 *   <li>any other generator (char-based {@code writeValueAsString}, the {@code TokenBuffer} behind {@code valueToTree},
 *       delegates): {@link JsonGenerator#writeString(String)} of the same text.
 * </ul>
 *
 * <p>The output is the same bytes on every path. Nothing is allocated per value on the first two paths once a thread's
 * scratch has grown to the size of its values.
 */
final class HexWriter {
    /** Largest scratch a thread keeps: 512 KiB, the text of a 262,143-byte value (a blob is 131,072). */
    static final int SCRATCH_MAX = 512 * 1024;

    private static final ThreadLocal<byte[]> SCRATCH = ThreadLocal.withInitial(() -> new byte[1024]);

    private HexWriter() {}

    /** Writes {@code src[offset, offset + length)} as the string value {@code "0x…"}. */
    static void write(byte[] src, int offset, int length, JsonGenerator gen) throws IOException {
        if (!(gen instanceof UTF8JsonGenerator)) {
            gen.writeString(Hex.encodeToString(src, offset, length, true));
            return;
        }
        int text = Hex.encodedLength(length, true);
        if (text <= SCRATCH_MAX) {
            byte[] scratch = scratch(text);
            Hex.encode(src, offset, length, scratch, 0, true);
            gen.writeRawUTF8String(scratch, 0, text);
        } else {
            stream(src, offset, length, gen);
        }
    }

    /** A value longer than the scratch: opening by the generator, digits straight to its stream. */
    private static void stream(byte[] src, int offset, int length, JsonGenerator gen) throws IOException {
        gen.writeRawValue("\"0x");
        gen.flush();
        OutputStream out = (OutputStream) gen.getOutputTarget();
        byte[] scratch = scratch(SCRATCH_MAX);
        int step = SCRATCH_MAX / 2;
        for (int done = 0; done < length; done += step) {
            int k = Math.min(step, length - done);
            Hex.encode(src, offset + done, k, scratch, 0, false);
            out.write(scratch, 0, 2 * k);
        }
        gen.writeRaw('"');
    }

    /** This thread's scratch, grown (to a power of two, at most {@link #SCRATCH_MAX}) to hold {@code n} bytes. */
    private static byte[] scratch(int n) {
        byte[] scratch = SCRATCH.get();
        if (scratch.length < n) {
            scratch = new byte[Math.min(SCRATCH_MAX, Integer.highestOneBit(n - 1) << 1)];
            SCRATCH.set(scratch);
        }
        return scratch;
    }
}
