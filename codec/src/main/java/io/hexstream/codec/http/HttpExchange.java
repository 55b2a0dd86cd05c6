package io.hexstream.codec.http;

import io.netty.handler.codec.http.FullHttpRequest;

/**
 * A request and the consumer of its response, written to a channel whose pipeline has an {@link HttpResponseReader}
 * after an {@code HttpClientCodec}. Writing it hands the request on (the channel releases it); the consumer hears of
 * the response, or of the failure, exactly once.
 *
 * @param request the request, with its body and headers complete ({@code Host}, {@code Content-Length})
 * @param consumer reads the response
 */
public record HttpExchange(FullHttpRequest request, HttpResponseConsumer consumer) {}
