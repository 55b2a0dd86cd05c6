package io.hexstream.codec.testing;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.UnpooledByteBufAllocator;
import io.netty.buffer.UnpooledHeapByteBuf;
import java.util.ArrayList;
import java.util.List;

/**
 * A heap buffer that keeps every hint it is {@linkplain ByteBuf#touch(Object) touched} with ({@code null} for
 * {@link ByteBuf#touch()}), in order: what Netty's leak detector would record for a tracked buffer.
 */
public final class TouchRecordingBuf extends UnpooledHeapByteBuf {
    private final List<Object> hints = new ArrayList<>();

    /** A buffer whose readable bytes are {@code bytes} (not copied). */
    public TouchRecordingBuf(byte[] bytes) {
        super(UnpooledByteBufAllocator.DEFAULT, bytes, bytes.length);
        writerIndex(bytes.length);
    }

    @Override
    public ByteBuf touch() {
        return touch(null);
    }

    @Override
    public ByteBuf touch(Object hint) {
        hints.add(hint);
        return this;
    }

    /** The hints so far, oldest first. */
    public List<Object> hints() {
        return hints;
    }
}
