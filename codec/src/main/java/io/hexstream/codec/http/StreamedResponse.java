package io.hexstream.codec.http;

import io.hexstream.codec.body.StreamedBody;
import io.netty.handler.codec.http.DefaultHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.util.ReferenceCounted;

/**
 * An HTTP/1.1 response whose content is a {@link StreamedBody}, written to a channel with a
 * {@link StreamedResponseEncoder}: the head says the body's {@code Content-Type} and exact {@code Content-Length}, and
 * the body is produced chunk by chunk as the socket drains.
 *
 * <p>Ownership: reference-counted through its body. Writing it hands the body on; whoever drops it unwritten releases
 * it (Netty does so for messages it discards).
 *
 * @param version the request's protocol version
 * @param status the response status
 * @param keepAlive whether the connection stays open after this response; if not, it is closed after the last byte
 * @param body the content
 */
public record StreamedResponse(HttpVersion version, HttpResponseStatus status, boolean keepAlive, StreamedBody body)
        implements ReferenceCounted {

    /**
     * The response to {@code request}: same version, keep-alive as the request asks; takes {@code body}'s reference.
     */
    public static StreamedResponse of(HttpRequest request, HttpResponseStatus status, StreamedBody body) {
        return new StreamedResponse(request.protocolVersion(), status, HttpUtil.isKeepAlive(request), body);
    }

    /**
     * The response's head, as its encoder writes it: the status, the body's {@code Content-Type}, its exact
     * {@code Content-Length} and the keep-alive asked for. Reads the body: call it while this response still holds it
     * (before {@link StreamedBody#bodyInput} takes its reference).
     */
    public HttpResponse head() {
        HttpResponse head = new DefaultHttpResponse(version, status);
        head.headers().set(HttpHeaderNames.CONTENT_TYPE, body.contentType());
        head.headers().set(HttpHeaderNames.CONTENT_LENGTH, body.contentLength());
        HttpUtil.setKeepAlive(head, keepAlive);
        return head;
    }

    @Override
    public int refCnt() {
        return body.refCnt();
    }

    @Override
    public StreamedResponse retain() {
        body.retain();
        return this;
    }

    @Override
    public StreamedResponse retain(int increment) {
        body.retain(increment);
        return this;
    }

    @Override
    public StreamedResponse touch() {
        body.touch();
        return this;
    }

    /** Records {@code hint} on the body, which may pass it on to the buffers it retains. */
    @Override
    public StreamedResponse touch(Object hint) {
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
