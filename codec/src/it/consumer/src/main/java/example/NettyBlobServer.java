package example;

import io.hexstream.codec.body.StreamedBody;
import io.hexstream.codec.http.StreamedResponse;
import io.hexstream.codec.http.StreamedResponseEncoder;
import io.hexstream.codec.json.JsonBody;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpServerCodec;
import java.util.List;

/** A Netty pipeline answering every request with one blob and its proofs, streamed as the socket drains. */
public final class NettyBlobServer extends ChannelInitializer<SocketChannel> {
    private final byte[] blob;
    private final List<byte[]> proofs;

    /** {@code blob}: 131,072 bytes; {@code proofs}: 128 cell proofs of 48 bytes; both referenced, not copied. */
    public NettyBlobServer(byte[] blob, List<byte[]> proofs) {
        this.blob = blob;
        this.proofs = proofs;
    }

    /** Binds {@code host:port} (0: any free port) on {@code group}, an NIO event loop group. */
    public static ChannelFuture bind(EventLoopGroup group, String host, int port, byte[] blob, List<byte[]> proofs) {
        return new ServerBootstrap()
                .group(group)
                .channel(NioServerSocketChannel.class)
                .childHandler(new NettyBlobServer(blob, proofs))
                .bind(host, port);
    }

    @Override
    protected void initChannel(SocketChannel ch) {
        ch.pipeline()
                .addLast(
                        new HttpServerCodec(),
                        new HttpObjectAggregator(1 << 20),
                        new StreamedResponseEncoder(),
                        new SimpleChannelInboundHandler<FullHttpRequest>() {
                            @Override
                            protected void channelRead0(ChannelHandlerContext ctx, FullHttpRequest request) {
                                StreamedBody body = JsonBody.builder() // application/json, exact length
                                        .beginObject()
                                        .name("jsonrpc")
                                        .string("2.0")
                                        .name("id")
                                        .raw("1")
                                        .name("result")
                                        .beginArray()
                                        .beginObject()
                                        .name("blob")
                                        .hex(blob)
                                        .name("proofs")
                                        .hexArray(proofs)
                                        .endObject()
                                        .endArray()
                                        .endObject()
                                        .build();
                                ctx.writeAndFlush(StreamedResponse.of(
                                        request, HttpResponseStatus.OK, body)); // exact Content-Length
                            }
                        });
    }
}
