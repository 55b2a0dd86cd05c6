package io.hexstream.codec.http;

import io.hexstream.codec.json.JsonBody;
import io.hexstream.codec.json.JsonBodyInput;
import io.netty.buffer.ByteBuf;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.stream.ChunkedInput;

/**
 * An HTTP response whose content is a {@link JsonBody} ({@code Content-Type: application/json}), written to a channel
 * with a {@link StreamedResponseEncoder}. Reference-counted through its body: writing it hands the body on, and whoever
 * drops it releases it (Netty does so for messages it discards).
 *
 * @param version the request's protocol version
 * @param status the response status
 * @param keepAlive whether the connection stays open after this response
 * @param body the content, {@code Content-Length} = {@link JsonBody#length()}
 */
public record JsonResponse(HttpVersion version, HttpResponseStatus status, boolean keepAlive, JsonBody body)
        implements StreamedResponse {

    /** The response to {@code request}: same version, keep-alive as the request asks. */
    public static JsonResponse of(HttpRequest request, HttpResponseStatus status, JsonBody body) {
        return new JsonResponse(request.protocolVersion(), status, HttpUtil.isKeepAlive(request), body);
    }

    @Override
    public CharSequence contentType() {
        return HttpHeaderValues.APPLICATION_JSON;
    }

    @Override
    public long contentLength() {
        return body.length();
    }

    /** The body in direct chunks ({@link JsonBodyInput}), which takes the body's reference. */
    @Override
    public ChunkedInput<ByteBuf> bodyInput(int chunkSize) {
        return new JsonBodyInput(body, chunkSize);
    }

    @Override
    public int refCnt() {
        return body.refCnt();
    }

    @Override
    public JsonResponse retain() {
        body.retain();
        return this;
    }

    @Override
    public JsonResponse retain(int increment) {
        body.retain(increment);
        return this;
    }

    @Override
    public JsonResponse touch() {
        body.touch();
        return this;
    }

    /** Records {@code hint} on the body, which passes it on to every {@code ByteBuf} it retains. */
    @Override
    public JsonResponse touch(Object hint) {
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
