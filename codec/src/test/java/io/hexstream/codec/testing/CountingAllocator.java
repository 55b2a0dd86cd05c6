package io.hexstream.codec.testing;

import io.netty.buffer.AbstractByteBufAllocator;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.UnpooledByteBufAllocator;
import java.util.concurrent.atomic.AtomicLong;

/** Chunk memory: exact counts of direct bytes allocated and not yet released, and their peak since reset. */
public final class CountingAllocator extends AbstractByteBufAllocator {
    private final UnpooledByteBufAllocator memory = new UnpooledByteBufAllocator(true, false, false);
    private final AtomicLong peak = new AtomicLong();

    public CountingAllocator() {
        super(true);
    }

    @Override
    protected ByteBuf newDirectBuffer(int initialCapacity, int maxCapacity) {
        ByteBuf buf = memory.directBuffer(initialCapacity, maxCapacity);
        peak.accumulateAndGet(outstanding(), Math::max);
        return buf;
    }

    @Override
    protected ByteBuf newHeapBuffer(int initialCapacity, int maxCapacity) {
        return memory.heapBuffer(initialCapacity, maxCapacity);
    }

    @Override
    public boolean isDirectBufferPooled() {
        return false;
    }

    /** Direct bytes allocated and not yet released. */
    public long outstanding() {
        return memory.metric().usedDirectMemory();
    }

    /** The most {@link #outstanding()} has been since the last {@link #resetPeak()}. */
    public long peak() {
        return peak.get();
    }

    public void resetPeak() {
        peak.set(0);
    }
}
