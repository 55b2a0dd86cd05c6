package io.hexstream.server.pool;

/**
 * Why the pool refuses an item of an {@link io.hexstream.server.blob.Origin#UNAUTHENTICATED unauthenticated} origin:
 * its sender has {@link BlobPool#MAX_TRANSACTIONS_PER_SENDER} such transactions pooled, or it does not fit in the share
 * of the pool such items may hold without evicting another origin's. The message names the limit first,
 * {@code "<check>: <detail>"}. Nothing was changed.
 */
public final class PoolRefusedException extends Exception {
    private static final long serialVersionUID = 1L;

    /** The check of a sender with too many transactions pooled. */
    public static final String SENDER_LIMIT = "sender limit";
    /** The check of an item that does not fit in the unauthenticated share of the pool. */
    public static final String POOL_SHARE = "pool share";

    private final String check;
    private final String detail;

    PoolRefusedException(String check, String detail) {
        super(check + ": " + detail, null, false, false);
        this.check = check;
        this.detail = detail;
    }

    /** {@link #SENDER_LIMIT} or {@link #POOL_SHARE}. */
    public String check() {
        return check;
    }

    /** The message without the check's name. */
    public String detail() {
        return detail;
    }
}
