package io.hexstream.codec.json;

import io.hexstream.codec.body.StreamedBody;
import io.netty.buffer.ByteBuf;
import io.netty.handler.stream.ChunkedInput;
import io.netty.util.AbstractReferenceCounted;
import io.netty.util.AsciiString;
import java.util.List;

/**
 * A JSON document described once and produced later, in chunks: structural tokens and names as bytes, hex string values
 * as references to their source bytes (or to their digits, given already encoded). Its exact byte {@link #length()} is
 * known before the first byte is produced, and it never exists whole in memory. A {@link StreamedBody} of
 * {@code application/json}, so any transport streams it as it is.
 *
 * <p>Reference-counted: the body holds one reference to every {@code ByteBuf} it references and releases them when its
 * own count reaches zero. Hand it to a {@link JsonBodyInput} (which releases it on close), to a transport, or release
 * it yourself. Build one with {@link #builder()}.
 */
public final class JsonBody extends AbstractReferenceCounted implements StreamedBody {
    /** The media type of every JSON body. */
    private static final AsciiString APPLICATION_JSON = AsciiString.cached("application/json");

    private final List<Segment> segments;
    private final long length;
    /** Whether a builder took the segments over ({@link #handOver}): deallocating then releases nothing. */
    private boolean handedOver;

    /** Takes {@code segments} as they are: the builder that made them adds no more (no copy per body). */
    JsonBody(List<Segment> segments) {
        this.segments = segments;
        long total = 0;
        for (Segment segment : segments) {
            total += segment.length();
        }
        this.length = total;
    }

    /** A builder for a new body; close it if you abandon it before {@link JsonBodyBuilder#build()}. */
    public static JsonBodyBuilder builder() {
        return new JsonBodyBuilder();
    }

    /** Exact number of bytes (UTF-8, compact JSON) the body produces. */
    public long length() {
        return length;
    }

    /** {@code application/json}. */
    @Override
    public CharSequence contentType() {
        return APPLICATION_JSON;
    }

    /** {@link #length()}. */
    @Override
    public long contentLength() {
        return length;
    }

    /** The body in direct chunks: a {@link JsonBodyInput}, which takes this body's reference. */
    @Override
    public ChunkedInput<ByteBuf> bodyInput(int chunkSize) {
        return new JsonBodyInput(this, chunkSize);
    }

    List<Segment> segments() {
        return segments;
    }

    /**
     * Moves the segments out, for {@link JsonBodyBuilder#value(JsonBody)}, and releases this body, which then holds
     * nothing; the caller holds its only reference.
     */
    List<Segment> handOver() {
        handedOver = true;
        release();
        return segments;
    }

    @Override
    protected void deallocate() {
        if (handedOver) {
            return;
        }
        for (Segment segment : segments) {
            segment.release();
        }
    }

    /** Records {@code hint} on every {@code ByteBuf} the body retains, for Netty's leak reports. */
    @Override
    public JsonBody touch(Object hint) {
        for (Segment segment : segments) {
            segment.touch(hint);
        }
        return this;
    }

    @Override
    public JsonBody retain() {
        super.retain();
        return this;
    }

    @Override
    public JsonBody touch() {
        return touch(null);
    }
}
