package io.hexstream.server.http;

import io.hexstream.server.metrics.ServerMetrics;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler.Sharable;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.http2.Http2StreamChannel;
import io.netty.util.AttributeKey;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.concurrent.TimeUnit;

/**
 * At most {@code max} connections open at once over the ports it is given to (an {@link EngineServer.Port} each): ports
 * given the same instance share its places, a port given another one cannot take them. A connection that has passed the
 * JWT ({@link #proven}) keeps its place until it closes; the others give theirs up to a new connection when every place
 * is taken: first one lingering after a refusal ({@link #lingering}), the first to linger first; else the oldest one
 * that has had {@link #GRACE} to send a request with the JWT and has not (idle, or sending slowly), which is closed. If
 * neither is there, the new connection waits (the ports stop accepting, so later ones wait in the kernel's backlog)
 * until a place is free or can be taken; if every place is held by a connection that has passed the JWT, it is refused.
 * So a fresh connection from the authenticated client, unproven when it arrives, keeps its place for {@link #GRACE}
 * however many arrive after it, and waits for one at most that long behind others. Refused and displaced connections
 * are closed before anything is read from them or set up for them, counted and logged ({@link RefusalLog}).
 *
 * <p>Sits on the listening channels, before the bootstrap hands the accepted ones on (a waiting connection is handed on
 * when it has a place); each accepted connection carries its place as an attribute, for {@link #proven} and
 * {@link #lingering}. Thread-safe: the places are kept under a lock taken for a few steps on accept, on each change and
 * on close.
 */
@Sharable
public final class ConnectionLimit extends ChannelInboundHandlerAdapter {
    /**
     * How long a new connection keeps its place, whatever arrives, while it has not passed the JWT: counted from when
     * its I/O thread has set it up, so that a busy server does not take it for slow.
     */
    public static final Duration GRACE = Duration.ofSeconds(2);

    private static final AttributeKey<Place> PLACE = AttributeKey.valueOf(ConnectionLimit.class, "place");

    /** Where a connection stands, under the limit's lock. */
    private enum Standing {
        UNPROVEN,
        PROVEN,
        LINGERING,
        GONE
    }

    /** One connection's place. */
    private static final class Place {
        final ConnectionLimit limit;
        final Channel channel;
        /** When its grace started: accepted, then set up on its I/O thread. */
        long since = System.nanoTime();

        Standing standing = Standing.UNPROVEN;
        /** {@link #proven} was told, on the connection's I/O thread (the lock is taken once per connection). */
        boolean passed;

        Place(ConnectionLimit limit, Channel channel) {
            this.limit = limit;
            this.channel = channel;
        }
    }

    /** An accepted connection waiting for a place, and the listening channel's context that hands it on. */
    private record Arrival(ChannelHandlerContext listener, Channel child) {}

    /** What becomes of an arrival: a place (taken from {@code displaced} if not null), a wait, or a refusal. */
    private record Outcome(Place place, Place displaced, long waitNanos) {
        static final Outcome REFUSED = new Outcome(null, null, -1);
    }

    private final int max;
    private final String name;
    private final RefusalLog log;
    private final ServerMetrics metrics;
    private final Object lock = new Object();
    /** Places of connections that have not passed the JWT, oldest first. */
    private final LinkedHashSet<Place> unproven = new LinkedHashSet<>();
    /** Places of connections lingering after a refusal, the first to linger first. */
    private final LinkedHashSet<Place> lingering = new LinkedHashSet<>();
    /** Connections accepted while no place could be had, in order. */
    private final ArrayDeque<Arrival> waiting = new ArrayDeque<>();
    /** Places taken, whatever their standing. */
    private int open;
    /** A look at the waiting connections is scheduled. */
    private boolean recheck;

    /**
     * @param max the most connections open at once, at least 1
     * @param name what the refusal log names the limit by, e.g. {@code --max-connections}
     * @param metrics told each connection opened, closed, refused or displaced ({@link ServerMetrics#NONE}: not
     *     counted)
     */
    public ConnectionLimit(int max, String name, RefusalLog log, ServerMetrics metrics) {
        if (max < 1) {
            throw new IllegalArgumentException("max connections " + max + " < 1");
        }
        this.max = max;
        this.name = name;
        this.log = log;
        this.metrics = metrics;
    }

    /**
     * {@code connection} has passed the JWT (or needs none, as an IPC connection, whose socket file is the gate): it
     * keeps its place until it closes. An HTTP/2 stream proves its connection.
     */
    public static void proven(Channel connection) {
        Place place = (connection instanceof Http2StreamChannel stream ? stream.parent() : connection)
                .attr(PLACE)
                .get();
        if (place != null && !place.passed) {
            place.passed = true;
            place.limit.prove(place);
        }
    }

    /** {@code connection} lingers after a refusal ({@link LingeringClose}): its place is the first to go. */
    static void lingering(Channel connection) {
        Place place = connection.attr(PLACE).get();
        if (place != null) {
            place.limit.linger(place);
        }
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        synchronized (lock) {
            waiting.add(new Arrival(ctx, (Channel) msg));
        }
        admit();
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        synchronized (lock) {
            waiting.removeIf(arrival -> {
                if (arrival.listener() == ctx) {
                    arrival.child().unsafe().closeForcibly();
                    return true;
                }
                return false;
            });
        }
        ctx.fireChannelInactive();
    }

    /** Gives a place to the waiting connections that can have one, in order; stops at the first that must wait. */
    private void admit() {
        while (true) {
            Arrival arrival;
            Outcome outcome;
            synchronized (lock) {
                arrival = waiting.peek();
                if (arrival == null) {
                    return;
                }
                outcome = decide(arrival.child());
                if (outcome.waitNanos() >= 0) {
                    arrival.listener().channel().config().setAutoRead(false);
                    if (!recheck) {
                        recheck = true;
                        arrival.listener()
                                .executor()
                                .schedule(this::recheck, outcome.waitNanos(), TimeUnit.NANOSECONDS);
                    }
                    return;
                }
                waiting.poll();
                if (waiting.stream().noneMatch(next -> next.listener() == arrival.listener())) {
                    arrival.listener().channel().config().setAutoRead(true);
                }
            }
            if (outcome.place() == null) {
                refuse(arrival.child());
            } else {
                handOn(arrival, outcome);
            }
        }
    }

    private void recheck() {
        synchronized (lock) {
            recheck = false;
        }
        admit();
    }

    /** A place for {@code child}, a wait, or a refusal; under the lock. */
    private Outcome decide(Channel child) {
        if (open < max) {
            open++;
            return take(new Place(this, child), null);
        }
        Place displaced = first(lingering);
        if (displaced == null && !unproven.isEmpty()) {
            long age = System.nanoTime() - unproven.iterator().next().since;
            if (age < GRACE.toNanos()) {
                return new Outcome(null, null, GRACE.toNanos() - age);
            }
            displaced = first(unproven);
        }
        return displaced == null ? Outcome.REFUSED : take(new Place(this, child), displaced);
    }

    private Outcome take(Place place, Place displaced) {
        unproven.add(place);
        return new Outcome(place, displaced, -1);
    }

    /** Removes and returns the first of {@code places}, or {@code null} if there is none; under the lock. */
    private static Place first(LinkedHashSet<Place> places) {
        Iterator<Place> iterator = places.iterator();
        if (!iterator.hasNext()) {
            return null;
        }
        Place place = iterator.next();
        iterator.remove();
        place.standing = Standing.GONE; // its place is the new connection's
        return place;
    }

    private void refuse(Channel child) {
        metrics.refused(ServerMetrics.Limit.MAX_CONNECTIONS);
        log.refused(child.remoteAddress(), "connection: " + max + " are open (" + name + "), all past the JWT");
        child.unsafe().closeForcibly();
    }

    private void handOn(Arrival arrival, Outcome outcome) {
        Place displaced = outcome.displaced();
        if (displaced != null) {
            metrics.refused(ServerMetrics.Limit.MAX_CONNECTIONS_DISPLACED);
            log.refused(
                    displaced.channel.remoteAddress(),
                    "connection closed for a new one: " + max + " are open (" + name + "), it had not passed the JWT");
            displaced.channel.close();
        }
        Channel child = arrival.child();
        child.attr(PLACE).set(outcome.place());
        child.pipeline().addFirst(new GraceStart(outcome.place()));
        metrics.connectionOpened();
        child.closeFuture().addListener(closed -> {
            release(outcome.place());
            metrics.connectionClosed();
        });
        arrival.listener().fireChannelRead(child);
    }

    /** Starts a connection's {@link #GRACE} anew when its I/O thread has set it up; then leaves. */
    private static final class GraceStart extends ChannelInboundHandlerAdapter {
        private final Place place;

        GraceStart(Place place) {
            this.place = place;
        }

        @Override
        public void channelActive(ChannelHandlerContext ctx) {
            synchronized (place.limit.lock) {
                place.since = System.nanoTime();
            }
            ctx.pipeline().remove(this);
            ctx.fireChannelActive();
        }
    }

    private void prove(Place place) {
        synchronized (lock) {
            if (place.standing == Standing.UNPROVEN) {
                unproven.remove(place);
                place.standing = Standing.PROVEN;
            }
        }
        admit(); // the waiting connections may now have to be refused
    }

    private void linger(Place place) {
        synchronized (lock) {
            if (place.standing == Standing.UNPROVEN || place.standing == Standing.PROVEN) {
                unproven.remove(place);
                lingering.add(place);
                place.standing = Standing.LINGERING;
            }
        }
        admit();
    }

    private void release(Place place) {
        synchronized (lock) {
            if (place.standing != Standing.GONE) {
                unproven.remove(place);
                lingering.remove(place);
                place.standing = Standing.GONE;
                open--;
            }
        }
        admit();
    }
}
