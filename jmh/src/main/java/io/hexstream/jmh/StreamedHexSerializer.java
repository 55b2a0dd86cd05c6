package io.hexstream.jmh;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.ser.std.StdSerializer;
import io.hexstream.codec.Hex;
import java.io.IOException;
import java.io.OutputStream;
import org.apache.tuweni.bytes.Bytes;

/**
 * The alternative {@code HexModule} was measured against ({@code JacksonModuleBenchmark.hexModuleStreamed}): every
 * value streamed to the generator's {@code OutputStream} in 8 KiB pieces of digits (the generator writes the separator
 * and {@code "0x}, is flushed, the digits go straight to the stream, the generator writes the closing quote), instead
 * of one {@code writeRawUTF8String} from a scratch of the value's size. Byte-based generators only; a benchmark
 * candidate, not a serializer to use.
 */
public final class StreamedHexSerializer extends StdSerializer<Bytes> {
    private static final long serialVersionUID = 1L;
    private static final int PIECE = 4096;
    private static final ThreadLocal<byte[]> SCRATCH = ThreadLocal.withInitial(() -> new byte[2 * PIECE]);

    public StreamedHexSerializer() {
        super(Bytes.class);
    }

    @Override
    public void serialize(Bytes value, JsonGenerator gen, SerializerProvider provider) throws IOException {
        byte[] src = value.toArrayUnsafe();
        gen.writeRawValue("\"0x");
        gen.flush();
        OutputStream out = (OutputStream) gen.getOutputTarget();
        byte[] scratch = SCRATCH.get();
        for (int done = 0; done < src.length; done += PIECE) {
            int k = Math.min(PIECE, src.length - done);
            Hex.encode(src, done, k, scratch, 0, false);
            out.write(scratch, 0, 2 * k);
        }
        gen.writeRaw('"');
    }
}
