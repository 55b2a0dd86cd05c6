package io.hexstream.server.http;

import io.netty.channel.ChannelHandler;
import io.netty.handler.codec.http.FullHttpResponse;
import java.util.List;

/**
 * A route's answer that switches the connection from HTTP/1.1 to another protocol (RFC 9110 15.2.2, {@code 101
 * Switching Protocols}), handed to {@link Http1Responder#respond(Object, long,
 * io.hexstream.server.metrics.ResponseSummary)} by a route registered with {@link RouteTable.Builder#upgrade}. Once
 * {@link #response()} is written, the connection's HTTP handlers are replaced: {@link #codec()} goes where the HTTP
 * codec was (next to the socket, behind the read throttle, before the stalled-write timeout and the chunked writer,
 * which stay) and {@link #handlers()} at the end. Handlers made for this one connection.
 */
public interface SwitchingProtocols {

    /** The {@code 101} response, its headers as the new protocol's handshake needs them, without body. */
    FullHttpResponse response();

    /** The new protocol's codec, in order from the socket, e.g. a frame encoder and decoder. */
    List<ChannelHandler> codec();

    /** The new protocol's handlers after the chunked writer, in order from the socket. */
    List<ChannelHandler> handlers();
}
