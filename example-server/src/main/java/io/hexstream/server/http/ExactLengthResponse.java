package io.hexstream.server.http;

import io.hexstream.codec.http.StreamedResponse;
import io.hexstream.server.exchange.ReplyBody;
import io.netty.buffer.ByteBuf;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.stream.ChunkedInput;

/**
 * A route's {@link ReplyBody} as the HTTP/1.1 response written for it, for the
 * {@link io.hexstream.codec.http.StreamedResponseEncoder}: the request's version and keep-alive, the route's status,
 * the body's type and exact length. Reference-counted through the body: writing it hands the body on.
 *
 * @param version the request's protocol version
 * @param keepAlive whether the connection stays open after this response
 */
record ExactLengthResponse(HttpVersion version, HttpResponseStatus status, boolean keepAlive, ReplyBody body)
        implements StreamedResponse {

    @Override
    public CharSequence contentType() {
        return body.contentType();
    }

    @Override
    public long contentLength() {
        return body.contentLength();
    }

    @Override
    public ChunkedInput<ByteBuf> bodyInput(int chunkSize) {
        return body.bodyInput(chunkSize);
    }

    @Override
    public int refCnt() {
        return body.refCnt();
    }

    @Override
    public ExactLengthResponse retain() {
        body.retain();
        return this;
    }

    @Override
    public ExactLengthResponse retain(int increment) {
        body.retain(increment);
        return this;
    }

    @Override
    public ExactLengthResponse touch() {
        body.touch();
        return this;
    }

    @Override
    public ExactLengthResponse touch(Object hint) {
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
