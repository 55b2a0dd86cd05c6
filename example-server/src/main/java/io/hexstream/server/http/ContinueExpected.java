package io.hexstream.server.http;

import io.netty.handler.codec.http.HttpVersion;

/**
 * A request asked {@code Expect: 100-continue} and may send its body: passed on by {@link RequestSizeLimit} in place of
 * the {@code 100 Continue} the aggregator would write at once, so that {@link EngineApiHandler} writes it in turn,
 * after the responses to the requests before it.
 *
 * @param version the request's HTTP version
 */
record ContinueExpected(HttpVersion version) {}
