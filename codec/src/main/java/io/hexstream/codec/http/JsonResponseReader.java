package io.hexstream.codec.http;

import io.hexstream.codec.json.JsonHexReader;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPromise;
import io.netty.handler.codec.http.HttpContent;

/**
 * The client's side of JSON over HTTP/1.1: an {@link HttpResponseReader} that also sends each {@link JsonExchange}
 * written to the channel and reads its response's body, as each {@link HttpContent} arrives, through a
 * {@link JsonHexReader} into the listener the exchange's consumer gives for it; no body is aggregated. Requests may be
 * pipelined on a kept-alive connection: responses are matched to them in order (RFC 9112, section 9.3.2).
 *
 * <pre>
 * pipeline.addLast(new HttpClientCodec(), new JsonResponseReader(false));
 * channel.writeAndFlush(new JsonExchange(request, consumer));
 * </pre>
 *
 * <p>A body that is not the JSON the listener expects fails its exchange; the rest of that body is dropped and the
 * connection stays usable for the next response. Failures of the connection, paced reading ({@link #pause()},
 * {@link #resume()}) and ownership are as {@link HttpResponseReader}'s. The reader keeps no buffer: the listener's
 * destinations are the consumer's.
 */
public final class JsonResponseReader extends HttpResponseReader {

    /** A handler reading as fast as the socket delivers ({@code paced = false}) or as the consumer asks. */
    public JsonResponseReader(boolean paced) {
        super(paced);
    }

    @Override
    public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
        if (msg instanceof JsonExchange exchange) {
            msg = new HttpExchange(exchange.request(), new JsonBodyReader(exchange.consumer()));
        }
        super.write(ctx, msg, promise);
    }
}
