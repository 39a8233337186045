package dev.spanprofile.autoconfigure.ondemand;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.function.LongSupplier;

/**
 * Decides whether a request that carries the on-demand header is forced: the header's
 * value must equal the token (compared in constant time, digests of both, so that neither
 * a prefix nor the length leaks through timing), or the caller must be on loopback when
 * that is allowed; and at most so many a minute are forced.
 * <p>
 * A request whose value is wrong is {@link Decision#IGNORED}: nothing changes for it, so
 * a caller without the token learns nothing, not even that the feature is on.
 */
public final class OnDemandGate {

	private static final long MINUTE_NANOS = 60_000_000_000L;

	/** What to do with a request. */
	public enum Decision {

		/** No header, or a wrong value: as if the feature were off. */
		IGNORED,

		/** Traced, profiled and kept. */
		FORCED,

		/** A right value, but over {@code max-per-minute}: answered so. */
		RATE_LIMITED

	}

	private final byte[] tokenDigest;

	private final boolean allowLoopback;

	private final int maxPerMinute;

	private final LongSupplier nanoClock;

	/** Guarded by this. */
	private long minute = Long.MIN_VALUE;

	/** Guarded by this. */
	private int forcedThisMinute;

	/**
	 * @param token the secret, or {@code null} (only loopback callers then, if allowed)
	 * @param nanoClock {@link System#nanoTime()}, or a test's clock
	 */
	public OnDemandGate(String token, boolean allowLoopback, int maxPerMinute, LongSupplier nanoClock) {
		this.tokenDigest = (token != null && !token.isEmpty()) ? digest(token) : null;
		this.allowLoopback = allowLoopback;
		this.maxPerMinute = maxPerMinute;
		this.nanoClock = nanoClock;
	}

	/**
	 * @param value the header's value, {@code null} when absent
	 * @param remoteAddress the caller's IP address as the server saw it, for the loopback
	 * rule
	 */
	public Decision decide(String value, String remoteAddress) {
		if (value == null || !(tokenMatches(value) | callerOnLoopback(remoteAddress))) {
			return Decision.IGNORED;
		}
		return take() ? Decision.FORCED : Decision.RATE_LIMITED;
	}

	private boolean tokenMatches(String value) {
		// Digest and compare even without a token, so that both rules cost the same.
		byte[] given = digest(value);
		return MessageDigest.isEqual(given, (this.tokenDigest != null) ? this.tokenDigest : new byte[given.length])
				&& this.tokenDigest != null;
	}

	private boolean callerOnLoopback(String remoteAddress) {
		if (!this.allowLoopback || remoteAddress == null) {
			return false;
		}
		try {
			// An IP literal, as the server reports it: parsed, never looked up.
			return isIpLiteral(remoteAddress) && InetAddress.getByName(remoteAddress).isLoopbackAddress();
		}
		catch (UnknownHostException ex) {
			return false;
		}
	}

	private static boolean isIpLiteral(String address) {
		// A dot or a colon: a word of hexadecimal letters ("cafe") is a host name.
		return (address.indexOf(':') >= 0 || address.indexOf('.') >= 0)
				&& address.chars().allMatch((c) -> Character.digit(c, 16) >= 0 || c == '.' || c == ':' || c == '%');
	}

	private synchronized boolean take() {
		long now = this.nanoClock.getAsLong();
		long thisMinute = Math.floorDiv(now, MINUTE_NANOS);
		if (thisMinute != this.minute) {
			this.minute = thisMinute;
			this.forcedThisMinute = 0;
		}
		if (this.forcedThisMinute >= this.maxPerMinute) {
			return false;
		}
		this.forcedThisMinute++;
		return true;
	}

	private static byte[] digest(String text) {
		try {
			return MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
		}
		catch (NoSuchAlgorithmException ex) {
			throw new IllegalStateException("SHA-256 is required of every Java platform", ex);
		}
	}

}
