package dev.spanprofile.view;

import java.util.ArrayList;
import java.util.List;

import dev.spanprofile.aggregate.NameAggregates;
import dev.spanprofile.render.CollapsedStacks;
import dev.spanprofile.render.pprof.PprofProfile;
import dev.spanprofile.profile.SampleKind;
import dev.spanprofile.store.SpanCpuTime;
import dev.spanprofile.store.SpanRecord;

/**
 * One span's or one trace's flame graph: the {@link ProfileSubject} with everything said
 * about it (display names, why it is empty), rendered by {@link ProfileJson} and
 * {@link ProfilePage} or written here as stacks.
 */
public final class ProfileView implements FlameGraphView {

	private final ViewContext context;

	private final ProfileSubject subject;

	private final boolean waitsChosen;

	private final Stretch.Range stretch;

	/** The name aggregates to compare a request with; {@code null} for a trace. */
	private final NameAggregates aggregates;

	ProfileView(ViewContext context, ProfileSubject subject, boolean waitsChosen, Stretch.Range stretch,
			NameAggregates aggregates) {
		this.context = context;
		this.subject = subject;
		this.waitsChosen = waitsChosen;
		this.stretch = stretch;
		this.aggregates = aggregates;
	}

	public ProfileSubject subject() {
		return this.subject;
	}

	/**
	 * Whether this is a span's graph of waits shown because no kind was asked for and the
	 * span mostly waited.
	 */
	public boolean waitsChosen() {
		return this.waitsChosen;
	}

	/**
	 * The stretch of the span's life the graph is limited to, or {@code null} for all of
	 * it.
	 */
	Stretch.Range stretch() {
		return this.stretch;
	}

	/**
	 * The request against its name's typical request, for a finished local root of a name
	 * with an aggregate; else {@code null}.
	 */
	RequestVsTypical versusTypical(SpanRecord profiled, SpanCpuTime cpuTime) {
		return (this.aggregates != null) ? RequestVsTypical.of(this.context, this.aggregates, profiled, cpuTime) : null;
	}

	/**
	 * Why a span's profile has no samples, in words; {@code null} when it has samples,
	 * and for a trace, whose page lists each local root's samples instead.
	 */
	public String emptyReason() {
		if (this.subject.isTrace()) {
			return null;
		}
		ProfileSubject.Part part = this.subject.parts().get(0);
		if (this.stretch != null) {
			return (part.samples().totalSamples() > 0) ? null
					: "No " + this.subject.kind().id() + " samples were taken in this stretch ("
							+ EmptyProfiles.millis(this.stretch.fromMillis()) + " to "
							+ EmptyProfiles.millis(this.stretch.toMillis()) + " from the span's start)";
		}
		return this.context.emptyReason(part.span(), this.subject.kind(), part.samples().totalSamples());
	}

	@Override
	public ProfileBody json() {
		return new ProfileJson(this.context, this).render();
	}

	@Override
	public String html() {
		return new ProfilePage(this.context, this).render();
	}

	@Override
	public String collapsed() {
		if (!this.subject.isTrace()) {
			return CollapsedStacks.render(this.subject.parts().get(0).samples(), this.context.frames());
		}
		StringBuilder out = new StringBuilder();
		for (ProfileSubject.Part part : this.subject.parts()) {
			// The span is the first frame, so that tools keep the spans apart.
			String prefix = part.name().replace(';', ':').replace('\n', ' ') + ";";
			for (String line : CollapsedStacks.render(part.samples(), this.context.frames()).split("\n")) {
				if (!line.isEmpty()) {
					out.append(prefix).append(line).append('\n');
				}
			}
		}
		return out.toString();
	}

	@Override
	public byte[] pprof() {
		List<PprofProfile.SpanSamples> spans = new ArrayList<>();
		long start = Long.MAX_VALUE;
		long end = 0;
		for (ProfileSubject.Part part : this.subject.parts()) {
			spans.add(new PprofProfile.SpanSamples(part.span().traceId(), part.span().spanId(), part.name(),
					part.samples()));
			start = Math.min(start, part.span().startEpochNanos());
			end = Math.max(end, part.span().startEpochNanos() + part.span().durationNanos(this.context.now()));
		}
		if (this.stretch != null) {
			start = this.stretch.fromEpochNanos();
			end = this.stretch.toEpochNanos();
		}
		SampleKind kind = this.subject.kind();
		String event = kind.counted() ? this.context.status().event() : kind.id();
		return PprofProfile.gzip(spans, this.context.frames(), event, this.context.periodOf(kind), start,
				Math.max(0, end - start));
	}

}
