package dev.spanprofile.aggregate;

import java.time.Duration;
import java.util.function.LongSupplier;

import dev.spanprofile.profile.SampleKind;
import dev.spanprofile.profile.StackTree;
import dev.spanprofile.profile.TreeTrimmer;
import dev.spanprofile.store.InclusiveSamples;
import dev.spanprofile.store.SpanRecord;

/**
 * A name's requests against its other requests, side by side in one tree: a selection
 * against the rest, the slow against the typical, one request against the typical. Reads
 * {@link NameAggregates}' statistics and profiles, taking their locks in the same order.
 */
public final class NameComparisons {

	private final AggregateSettings settings;

	private final BucketClock clock;

	private final TreeTrimmer trimmer;

	private final NameTable names;

	private final LatencyStats stats;

	private final NameProfiles profiles;

	/** Sweeps what left the window first. */
	private final LongSupplier tick;

	NameComparisons(AggregateSettings settings, BucketClock clock, TreeTrimmer trimmer, NameTable names,
			LatencyStats stats, NameProfiles profiles, LongSupplier tick) {
		this.settings = settings;
		this.clock = clock;
		this.trimmer = trimmer;
		this.names = names;
		this.stats = stats;
		this.profiles = profiles;
		this.tick = tick;
	}

	/**
	 * The requests of {@code selection} against every other request of the name in the
	 * window; {@code null} for an unknown name. The diff's threshold is the selection's
	 * shortest duration, as applied.
	 */
	public ProfileDiff selectionAgainstRest(String name, Duration window, SampleKind kind, LatencySelection selection) {
		this.tick.getAsLong();
		NameAggregate aggregate = this.names.get(name);
		if (aggregate == null) {
			return null;
		}
		Cells cells = selection.cells(this.clock, this.clock.last(window));
		NameProfiles.Merged inside;
		NameProfiles.Merged rest;
		RequestsBreakdown insideBreakdown;
		RequestsBreakdown restBreakdown;
		// Under one lock: a fold between the two merges would count in neither side.
		synchronized (this.profiles) {
			inside = merge(aggregate, window, kind, cells);
			rest = merge(aggregate, window, kind, cells.negate());
			insideBreakdown = this.profiles.breakdown(aggregate, this.clock.last(window), cells);
			restBreakdown = this.profiles.breakdown(aggregate, this.clock.last(window), cells.negate());
		}
		return new ProfileDiff(name, StackTree.sideBySide(inside.tree(), rest.tree()), inside.spans(), rest.spans(),
				LatencyBands.lowerEdgeNanos(selection.fromBand()), insideBreakdown, restBreakdown);
	}

	/**
	 * A name's slow spans against the rest; {@code null} for an unknown name. An explicit
	 * {@code thresholdNanos} is applied at the nearest band edge; by default the slow
	 * spans are those above the band of the name's p90 over the window (or in it, if none
	 * is above).
	 */
	public ProfileDiff slowAgainstTypical(String name, Duration window, SampleKind kind, Long thresholdNanos) {
		this.tick.getAsLong();
		NameAggregate aggregate = this.names.get(name);
		if (aggregate == null) {
			return null;
		}
		int split = (thresholdNanos != null) ? Math.max(1, LatencyBands.nearestEdge(thresholdNanos))
				: slowFrom(aggregate, window);
		Cells slowCells = Cells.bands(split, LatencyBands.count() - 1);
		Cells typicalCells = Cells.bands(0, split - 1);
		NameProfiles.Merged slow;
		NameProfiles.Merged typical;
		RequestsBreakdown slowBreakdown;
		RequestsBreakdown typicalBreakdown;
		synchronized (this.profiles) {
			slow = merge(aggregate, window, kind, slowCells);
			typical = merge(aggregate, window, kind, typicalCells);
			slowBreakdown = this.profiles.breakdown(aggregate, this.clock.last(window), slowCells);
			typicalBreakdown = this.profiles.breakdown(aggregate, this.clock.last(window), typicalCells);
		}
		return new ProfileDiff(name, StackTree.sideBySide(slow.tree(), typical.tree()), slow.spans(), typical.spans(),
				LatencyBands.lowerEdgeNanos(split), slowBreakdown, typicalBreakdown);
	}

	/**
	 * One span's own request against the typical spans of its name (those below the
	 * name's p90 over the window); {@code null} when its name is unknown.
	 */
	public ProfileDiff requestAgainstTypical(SpanRecord span, Duration window, SampleKind kind) {
		this.tick.getAsLong();
		SpanRecord root = span.localRoot();
		NameAggregate aggregate = this.names.get(root.name());
		if (aggregate == null) {
			return null;
		}
		int split = slowFrom(aggregate, window);
		NameProfiles.Merged typical;
		RequestsBreakdown typicalBreakdown;
		synchronized (this.profiles) {
			typical = merge(aggregate, window, kind, Cells.bands(0, split - 1));
			typicalBreakdown = this.profiles.breakdown(aggregate, this.clock.last(window), Cells.bands(0, split - 1));
		}
		StackTree own = InclusiveSamples.of(root, kind);
		return new ProfileDiff(root.name(), StackTree.sideBySide(own, typical.tree()), 1, typical.spans(),
				LatencyBands.lowerEdgeNanos(split), null, typicalBreakdown);
	}

	private int slowFrom(NameAggregate aggregate, Duration window) {
		BucketClock.Range buckets = this.clock.last(window);
		return LatencyBands.slowFrom(this.profiles.spansPerBand(aggregate, buckets),
				this.stats.over(aggregate, buckets).percentileNanos(90));
	}

	/**
	 * A name's merged profile of {@code kind} from the {@code cells} of the last
	 * {@code window}, its thinnest stacks trimmed.
	 */
	NameProfiles.Merged merge(NameAggregate aggregate, Duration window, SampleKind kind, Cells cells) {
		NameProfiles.Merged merged = this.profiles.merge(aggregate, this.clock.last(window), kind, cells);
		// A window of many buckets can hold more stacks than a page can draw.
		int most = 4 * this.settings.maxStacks();
		return new NameProfiles.Merged(this.trimmer.trim(merged.tree(), most, most), merged.spans(),
				merged.unsampled());
	}

}
