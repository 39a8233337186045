package dev.spanprofile.view;

import java.util.List;

import dev.spanprofile.profile.SampleKind;
import dev.spanprofile.profile.StackTree;
import dev.spanprofile.render.CollapsedStacks;
import dev.spanprofile.render.FlameGraphTree;
import dev.spanprofile.render.TimeBreakdown;
import dev.spanprofile.render.html.FlameGraphModel;
import dev.spanprofile.render.html.FlameGraphPage;
import dev.spanprofile.render.pprof.PprofProfile;
import dev.spanprofile.startup.StartupRecording;
import dev.spanprofile.startup.StartupStep;

/**
 * One step of the start as a flame graph of its own samples: what it did itself, apart
 * from its children (which have graphs of their own).
 */
public final class StartupStepView implements FlameGraphView {

	private final ViewContext context;

	private final StartupFigures figures;

	private final StartupStep step;

	private final SampleKind kind;

	private final StackTree samples;

	StartupStepView(ViewContext context, StartupRecording recording, StartupStep step, SampleKind kind) {
		this.context = context;
		this.figures = new StartupFigures(recording, context);
		this.step = step;
		this.kind = kind;
		StackTree kept = step.samples(kind);
		if (kept == null) {
			throw ViewException.notFound("The graph of startup step " + step.id() + " (" + step
					+ ") was not kept: only the " + recording.settings().maxGraphs() + " steps with the most own "
					+ "time keep theirs (spanprofile.startup.max-graphs)");
		}
		this.samples = kept;
	}

	private String title() {
		return this.step.toString();
	}

	@Override
	public StartupStepJson json() {
		return new StartupStepJson(this.context.engine(), this.figures.step(this.step, this.context.frames(), true),
				this.kind.id(), FlameGraphTree.render(title(), this.samples, this.context.frames()));
	}

	@Override
	public String collapsed() {
		return CollapsedStacks.render(this.samples, this.context.frames());
	}

	@Override
	public String html() {
		StartupJson.Step figures = this.figures.step(this.step, this.context.frames(), false);
		FlameGraphModel model = FlameGraphModel.builder(title(), this.context.frames(), this.context.classifier())
			.add(this.samples)
			.build();
		FlameGraphPage page = FlameGraphPage.of(model).title(title()).inFlight(this.step.isRunning());
		String href = "" + this.step.id();
		page.fact("thread", figures.thread())
			.fact("duration", StartupView.ms(figures.durationMillis()))
			.fact("own time", StartupView.ms(figures.ownMillis()) + " (its children's left out)")
			.fact("class loading",
					StartupView.ms(figures.classLoadingMillis()) + " of " + StartupView.ms(figures.cpuMillis())
							+ " CPU")
			.fact("samples", this.samples.totalSamples() + " " + this.kind.id());
		StackTree waits = this.context.startupWaitsSampled() ? this.step.samples(SampleKind.WAIT) : null;
		long cpuNanos = this.context.sampledKinds().contains(SampleKind.CPU)
				? this.step.weight(SampleKind.CPU) * this.context.intervalNanos() : -1;
		long ownNanos = Math.round(figures.ownMillis() * 1e6);
		long runQueue = (cpuNanos >= 0) ? this.figures.ownRunQueueNanos(this.step) : -1;
		page.breakdown(TimeBreakdown.of(ownNanos, cpuNanos, false, 0, runQueue,
				(runQueue >= 0) ? StartupFigures.blockedNanos(ownNanos, cpuNanos, runQueue) : -1, waits,
				this.context.frames()), this.step.isRunning());
		page.note("The step's own samples, taken on its thread while it was the innermost step there; its "
				+ "children's are in their own graphs.");
		if (!this.kind.counted()) {
			page.weightedIn(this.kind.unit());
		}
		for (SampleKind sampled : this.context.sampledKinds()) {
			page.kind(sampled.id(), Weights.label(sampled), href + "?format=html&event=" + sampled.id(),
					sampled == this.kind);
		}
		return page.link("the start", "../startup?format=html")
			.link("JSON", href + "?format=json&event=" + this.kind.id())
			.link("collapsed stacks", href + "?format=collapsed&event=" + this.kind.id())
			.link("pprof", href + "?format=pprof&event=" + this.kind.id())
			.sampling(this.kind.counted() ? this.context.status().event() : this.kind.id(),
					this.kind.counted() ? this.context.intervalMillis() : 0)
			.indexHref("../../spanprofile")
			.render();
	}

	@Override
	public byte[] pprof() {
		return PprofProfile.gzip(List.of(new PprofProfile.SpanSamples("", "", title(), this.samples)),
				this.context.frames(), this.kind.id(), this.context.periodOf(this.kind), this.step.startEpochNanos(),
				this.step.durationNanos(this.context.now()));
	}

}
