package dev.spanprofile.store;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The ranking behind protection, and nothing else: which finished requests earn a slot
 * (per span name the slowest few, the latest failed one per name and minute, those their
 * callers asked for) and which lose theirs to a newer one. A ranking of claims, each a
 * duration, an end and a name, so that it can be read and tested without a store;
 * {@link RetentionBudget} holds the requests, and decides what a claim with no slot left
 * means for its request (released, an ordinary old one again) and whether the protected
 * requests fit in their share of memory, which slots know nothing of.
 * <p>
 * Bounded by count: names beyond the cap share the slots of {@link #OTHER}, failures have
 * a fixed number of slots, forced requests at most {@link #MAX_FORCED}. Not thread-safe:
 * the budget calls it under its own lock.
 *
 * @param <C> the budget's claims, which carry its requests
 */
final class ProtectionSlots<C extends ProtectionSlots.Claim> {

	/** The name requests of names beyond the cap are counted under. */
	static final String OTHER = "other";

	/**
	 * Forced requests kept at once, beyond the slots of the slowest and failed ones; the
	 * oldest goes for a newer one. Callers are rate-limited long before this.
	 */
	static final int MAX_FORCED = 200;

	private static final long MINUTE_NANOS = 60_000_000_000L;

	private final RetentionSettings settings;

	/** Per name, the slowest claims, fastest first (the next to be outranked). */
	private final Map<String, List<C>> slowestByName = new HashMap<>();

	/** Claims of failed requests, in the order they were taken. */
	private final LinkedHashMap<ErrorSlot, C> errors = new LinkedHashMap<>();

	/** Forced claims, oldest first (the next to go for a newer one). */
	private final ArrayDeque<C> forced = new ArrayDeque<>();

	ProtectionSlots(RetentionSettings settings) {
		this.settings = settings;
	}

	/**
	 * Whether a request ending now might earn a slot; most do not, and this tells before
	 * anything is measured.
	 */
	boolean mightTake(String name, boolean error, long durationNanos) {
		if (error && this.settings.maxErrorSpans() > 0) {
			return true;
		}
		if (this.settings.slowestPerName() == 0) {
			return false;
		}
		List<C> slowest = this.slowestByName.get(nameKey(name));
		return slowest == null || slowest.size() < this.settings.slowestPerName()
				|| durationNanos > slowest.get(0).durationNanos;
	}

	/**
	 * Give {@code candidate} every slot it earns, taking them from the claims it
	 * outranks.
	 * @param changed collects the earlier claims that lost a slot: their reason changed,
	 * and one with {@linkplain Claim#holdsASlot() no slot left} is no longer protected
	 * @return whether the candidate holds a slot
	 */
	boolean take(C candidate, String name, boolean error, List<C> changed) {
		String key = nameKey(name);
		takeIfSlowest(key, candidate, changed);
		if (error) {
			takeIfFailed(key, candidate, changed);
		}
		if (candidate.forced) {
			while (this.forced.size() >= MAX_FORCED) {
				C oldest = this.forced.pollFirst();
				oldest.forced = false;
				changed.add(oldest);
			}
			this.forced.addLast(candidate);
		}
		return candidate.holdsASlot();
	}

	/**
	 * {@code claim} gives up every slot it holds (its window ended, or memory is short).
	 */
	void vacate(C claim) {
		if (claim.slowest) {
			List<C> slowest = this.slowestByName.get(claim.nameKey);
			if (slowest != null) {
				slowest.remove(claim);
				if (slowest.isEmpty()) {
					this.slowestByName.remove(claim.nameKey);
				}
			}
			claim.slowest = false;
		}
		if (claim.errorSlot != null) {
			this.errors.remove(claim.errorSlot, claim);
			claim.errorSlot = null;
		}
		if (claim.forced) {
			this.forced.remove(claim);
			claim.forced = false;
		}
	}

	private void takeIfSlowest(String key, C candidate, List<C> changed) {
		int limit = this.settings.slowestPerName();
		if (limit == 0) {
			return;
		}
		List<C> slowest = this.slowestByName.computeIfAbsent(key, (k) -> new ArrayList<>(limit));
		if (slowest.size() >= limit) {
			if (candidate.durationNanos <= slowest.get(0).durationNanos) {
				return;
			}
			C outranked = slowest.remove(0);
			outranked.slowest = false;
			changed.add(outranked);
		}
		int at = 0;
		while (at < slowest.size() && slowest.get(at).durationNanos < candidate.durationNanos) {
			at++;
		}
		slowest.add(at, candidate);
		candidate.slowest = true;
		candidate.nameKey = key;
	}

	private void takeIfFailed(String key, C candidate, List<C> changed) {
		if (this.settings.maxErrorSpans() == 0) {
			return;
		}
		ErrorSlot slot = new ErrorSlot(key, candidate.endNanos / MINUTE_NANOS);
		// The latest failure of a name in a minute replaces the one before: the most
		// recent is the one asked about.
		C previous = this.errors.remove(slot);
		if (previous != null) {
			previous.errorSlot = null;
			changed.add(previous);
		}
		this.errors.put(slot, candidate);
		candidate.errorSlot = slot;
		while (this.errors.size() > this.settings.maxErrorSpans()) {
			Iterator<C> oldest = this.errors.values().iterator();
			C dropped = oldest.next();
			oldest.remove();
			dropped.errorSlot = null;
			changed.add(dropped);
		}
	}

	private String nameKey(String name) {
		String key = (name != null) ? name : "";
		return (this.slowestByName.containsKey(key) || this.slowestByName.size() < this.settings.maxNames()) ? key
				: OTHER;
	}

	private record ErrorSlot(String nameKey, long minute) {
	}

	/**
	 * A request's claim to protection: what it is ranked by, and the slots it holds
	 * (written by the slots only; package-private since the slots reach them through a
	 * type variable). Guarded by the budget's lock.
	 */
	abstract static class Claim {

		final long durationNanos;

		/** When the request ended, epoch nanoseconds: its failure's minute. */
		final long endNanos;

		String nameKey;

		boolean slowest;

		ErrorSlot errorSlot;

		/** Asked for by its caller: kept until its window ends or the share is short. */
		boolean forced;

		Claim(long durationNanos, long endNanos, boolean forced) {
			this.durationNanos = durationNanos;
			this.endNanos = endNanos;
			this.forced = forced;
		}

		boolean holdsASlot() {
			return this.slowest || this.errorSlot != null || this.forced;
		}

		/** Why its request is kept, by the slots it holds now. */
		RetainedAs reason() {
			if (this.forced) {
				return RetainedAs.FORCED;
			}
			return this.slowest ? RetainedAs.SLOWEST : (this.errorSlot != null) ? RetainedAs.ERROR : RetainedAs.RECENT;
		}

	}

}
