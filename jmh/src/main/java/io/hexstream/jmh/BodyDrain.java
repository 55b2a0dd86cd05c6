package io.hexstream.jmh;

import io.hexstream.codec.json.JsonBody;
import io.hexstream.codec.json.JsonBodyInput;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;

/** Produces every chunk of a body as the socket would take them, releasing each: the benchmarks' sink. */
final class BodyDrain {
    private BodyDrain() {}

    /**
     * Reads {@code body} (taking over its reference) chunk by chunk from {@code allocator}, releasing each chunk;
     * returns a value of the bytes produced, so that the JIT cannot drop the work.
     */
    static long drain(JsonBody body, ByteBufAllocator allocator) {
        JsonBodyInput input = new JsonBodyInput(body);
        long last = 0;
        try {
            for (ByteBuf chunk; (chunk = input.readChunk(allocator)) != null; ) {
                last += chunk.getByte(chunk.writerIndex() - 1);
                chunk.release();
            }
        } finally {
            input.close();
        }
        return last + input.progress();
    }
}
