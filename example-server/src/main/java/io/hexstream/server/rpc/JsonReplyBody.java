package io.hexstream.server.rpc;

import io.hexstream.codec.json.JsonBody;
import io.hexstream.codec.json.JsonBodyInput;
import io.hexstream.server.exchange.ReplyBody;
import io.netty.buffer.ByteBuf;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.stream.ChunkedInput;

/**
 * A JSON response document ({@code application/json}) as a {@link ReplyBody}: its length is the {@link JsonBody}'s, its
 * chunks direct buffers of a {@link JsonBodyInput}. Reference-counted through the body, which the input takes over.
 */
public record JsonReplyBody(JsonBody body) implements ReplyBody {

    @Override
    public CharSequence contentType() {
        return HttpHeaderValues.APPLICATION_JSON;
    }

    @Override
    public long contentLength() {
        return body.length();
    }

    @Override
    public ChunkedInput<ByteBuf> bodyInput(int chunkSize) {
        return new JsonBodyInput(body, chunkSize);
    }

    @Override
    public int refCnt() {
        return body.refCnt();
    }

    @Override
    public JsonReplyBody retain() {
        body.retain();
        return this;
    }

    @Override
    public JsonReplyBody retain(int increment) {
        body.retain(increment);
        return this;
    }

    @Override
    public JsonReplyBody touch() {
        body.touch();
        return this;
    }

    /** Records {@code hint} on the body, which passes it on to every {@code ByteBuf} it retains. */
    @Override
    public JsonReplyBody touch(Object hint) {
        body.touch(hint);
        return this;
    }

    @Override
    public boolean release() {
        return body.release();
    }

    @Override
    public boolean release(int decrement) {
        return body.release(decrement);
    }
}
