package dev.spanprofile.view;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

import dev.spanprofile.aggregate.NameAggregates;
import dev.spanprofile.profile.SampleKind;
import dev.spanprofile.render.CollapsedStacks;
import dev.spanprofile.render.html.TablePage;
import dev.spanprofile.render.html.TablePage.Cell;
import dev.spanprofile.render.pprof.PprofProfile;
import dev.spanprofile.startup.StartupRecording;
import dev.spanprofile.startup.StartupStep;

/**
 * The application's start: its breakdown and the steps with the most own time (or, as the
 * timeline, the longest steps in the order they began, each a bar across the start; in
 * JSON every step), a page or JSON; the whole start's samples merged as collapsed stacks
 * or pprof.
 */
public final class StartupView implements View {

	/** Steps listed as the slowest. */
	static final int SLOWEST = 50;

	/**
	 * Steps the timeline page shows at most: the longest, in the order they began. Its
	 * JSON lists every step.
	 */
	static final int TIMELINE = 500;

	private final ViewContext context;

	private final StartupFigures figures;

	private final boolean timeline;

	private final SampleKind kind;

	private final NameAggregates aggregates;

	StartupView(ViewContext context, StartupRecording recording, boolean timeline, SampleKind kind,
			NameAggregates aggregates) {
		this.context = context;
		this.aggregates = aggregates;
		this.figures = new StartupFigures(recording, context);
		this.timeline = timeline;
		this.kind = kind;
	}

	@Override
	public Object render(ProfileFormat format) {
		return switch (format) {
			case JSON -> json();
			case HTML -> html();
			case COLLAPSED -> CollapsedStacks.render(this.figures.recording.whole(this.kind), this.context.frames());
			case PPROF -> {
				StartupStep root = this.figures.recording.root();
				yield PprofProfile.gzip(
						List.of(new PprofProfile.SpanSamples("", "", root.name(),
								this.figures.recording.whole(this.kind))),
						this.context.frames(), this.kind.id(), this.context.periodOf(this.kind), root.startEpochNanos(),
						root.durationNanos(this.figures.now));
			}
		};
	}

	public StartupJson json() {
		StartupRecording recording = this.figures.recording;
		return new StartupJson(this.context.engine(), recording.isFinished(),
				Instant.ofEpochSecond(0, recording.root().startEpochNanos()).toString(),
				this.figures.breakdown(this.context.frames(), this.context.classifier()),
				slowest().stream().map((step) -> this.figures.step(step, this.context.frames(), true)).toList(),
				byThread(recording.steps()).stream()
					.map((step) -> this.figures.step(step, this.context.frames(), false))
					.toList(),
				recording.steps().size(), recording.notRecorded(),
				FirstRequestsView.requests(this.context, recording, this.aggregates));
	}

	/** The steps with the most own time, most first. */
	List<StartupStep> slowest() {
		List<StartupStep> steps = new ArrayList<>(this.figures.recording.steps());
		steps.sort(Comparator.comparingLong((StartupStep step) -> this.figures.own.getOrDefault(step, 0L))
			.reversed()
			.thenComparingInt(StartupStep::id));
		return steps.subList(0, Math.min(SLOWEST, steps.size()));
	}

	/**
	 * The longest of the timeline's steps, at most {@link #TIMELINE}, by thread in the
	 * order they began: what the page shows (the JSON lists them all).
	 */
	static List<StartupJson.Step> longest(List<StartupJson.Step> timeline) {
		if (timeline.size() <= TIMELINE) {
			return timeline;
		}
		List<StartupJson.Step> longest = new ArrayList<>(timeline);
		longest.sort(Comparator.comparingDouble(StartupJson.Step::durationMillis)
			.reversed()
			.thenComparingInt(StartupJson.Step::id));
		List<StartupJson.Step> shown = new ArrayList<>(longest.subList(0, TIMELINE));
		shown.sort(Comparator.comparing(StartupJson.Step::thread).thenComparingInt(StartupJson.Step::id));
		return shown;
	}

	/** Steps by thread, each thread's in the order they began. */
	private static List<StartupStep> byThread(List<StartupStep> steps) {
		List<StartupStep> ordered = new ArrayList<>(steps);
		ordered.sort(Comparator.comparing(StartupStep::threadName).thenComparingInt(StartupStep::id));
		return ordered;
	}

	private String html() {
		StartupJson json = json();
		StartupJson.Breakdown breakdown = json.breakdown();
		TablePage page = TablePage.titled(this.timeline ? "Startup timeline" : "Startup");
		page.fact("started", json.startedAt())
			.fact("took", ms(breakdown.durationMillis()) + (json.finished() ? "" : " so far (still starting)"))
			.fact("CPU",
					ms(breakdown.cpuMillis()) + ": application " + ms(breakdown.cpuApplicationMillis()) + ", framework "
							+ ms(breakdown.cpuFrameworkMillis()) + ", JDK " + ms(breakdown.cpuJdkMillis())
							+ ", class loading " + ms(breakdown.classLoadingMillis()));
		if (breakdown.jitCompilationMillis() != null) {
			page.fact("JIT",
					ms(breakdown.jitCompilationMillis()) + " compiling, on the compiler threads"
							+ ((breakdown.classesLoaded() != null)
									? "; " + breakdown.classesLoaded() + " classes loaded" : ""));
		}
		if (breakdown.coreWaitMillis() != null) {
			page.fact("waiting for a core", ms(breakdown.coreWaitMillis())
					+ " of the main thread runnable but not running (measured, not sampled: no graph shows it)");
		}
		if (breakdown.waitMillis() != null) {
			page.fact("waits",
					ms(breakdown.waitMillis()) + " recorded; " + ms(breakdown.unaccountedMillis())
							+ " of the main thread neither on CPU nor in a recorded wait"
							+ ((breakdown.coreWaitMillis() != null) ? " nor waiting for a core" : ""));
		}
		else if (this.context.sampledKinds().contains(SampleKind.WAIT)) {
			page.fact("waits", "not recorded during the start (they are from when the application is ready; "
					+ "spanprofile.startup.waits=true records them during the start, at a cost)");
		}
		page.fact("steps", json.steps() + ((json.notRecorded() > 0)
				? " (" + json.notRecorded() + " more not recorded: spanprofile.startup.max-steps)" : ""));
		if (this.timeline) {
			page.note("The longest steps of the start (at most " + TIMELINE + "; the JSON lists every one), by thread, "
					+ "in the order they began: each bar is where the step ran in the whole start. A step's own time "
					+ "leaves out its children's.");
			page.link("slowest steps", "../startup?format=html").link("JSON", "timeline?format=json");
			page.columns(Cell.text("step"), Cell.text("thread"), Cell.number("own"), Cell.text("when"));
			double whole = Math.max(1e-9, breakdown.durationMillis());
			for (StartupJson.Step step : longest(json.timeline())) {
				Cell name = Cell.text("· ".repeat(Math.min(depthOf(step), 12)) + label(step));
				page.row(List.of(name, Cell.text(step.thread()), Cell.number(ms(step.ownMillis())), Cell.bar(
						ms(step.durationMillis()), step.startMillis() / whole,
						(step.startMillis() + step.durationMillis()) / whole,
						label(step) + " from " + ms(step.startMillis()) + " for " + ms(step.durationMillis()))));
			}
		}
		else {
			boolean coreWait = this.figures.ownCoreWait != null;
			page.note("The steps of the start with the most own time (their duration less their children's on the "
					+ "same thread), with the methods their own CPU samples ended in most. A step's graph holds its "
					+ "own samples only" + (coreWait ? "; its time waiting for a core, measured by the kernel, has no "
							+ "frames there (the step's thread did not run)." : "."));
			page.link("timeline", "startup/timeline?format=html")
				.link("first requests (" + json.firstRequests().size() + ")", "startup/first-requests?format=html")
				.link("JSON", "startup?format=json")
				.link("collapsed stacks", "startup?format=collapsed&event=" + this.kind.id())
				.link("pprof", "startup?format=pprof&event=" + this.kind.id());
			List<Cell> columns = new ArrayList<>(List.of(Cell.text("step"), Cell.text("thread"), Cell.number("own"),
					Cell.number("duration"), Cell.number("CPU"), Cell.number("class loading"), Cell.number("waits")));
			if (coreWait) {
				columns.add(Cell.number("waiting for a core"));
			}
			columns.add(Cell.text("hottest"));
			page.columns(columns.toArray(Cell[]::new));
			for (StartupJson.Step step : json.slowest()) {
				Cell name = Cell.text(label(step));
				if (step.graph() != null) {
					name = Cell.links().link(label(step), step.graph() + "?format=html");
				}
				String hottest = (step.hottestFrames() != null) ? String.join(", ",
						step.hottestFrames().stream().map((frame) -> shortFrame(frame.frame())).toList()) : "";
				List<Cell> row = new ArrayList<>(List.of(name, Cell.text(step.thread()),
						Cell.number(ms(step.ownMillis())), Cell.number(ms(step.durationMillis())),
						Cell.number(ms(step.cpuMillis())), Cell.number(ms(step.classLoadingMillis())),
						Cell.number((step.waitMillis() != null) ? ms(step.waitMillis()) : "-")));
				if (coreWait) {
					row.add(Cell.number((step.coreWaitMillis() != null) ? ms(step.coreWaitMillis()) : "-"));
				}
				row.add(Cell.text(hottest));
				page.row(row);
			}
		}
		return page.indexHref(this.timeline ? "../../spanprofile" : "../spanprofile").render();
	}

	private int depthOf(StartupJson.Step step) {
		StartupStep found = this.figures.recording.find(step.id());
		return (found != null) ? found.depth() : 0;
	}

	static String label(StartupJson.Step step) {
		return step.name() + ((step.detail() != null) ? " " + step.detail() : "");
	}

	private static String shortFrame(String frame) {
		int paren = frame.indexOf('(');
		String name = (paren > 0) ? frame.substring(0, paren) : frame;
		int method = name.lastIndexOf('.');
		int type = (method > 0) ? name.lastIndexOf('.', method - 1) : -1;
		return (type >= 0) ? name.substring(type + 1) : name;
	}

	static String ms(double millis) {
		return String.format(Locale.ROOT, (millis < 10) ? "%.1f ms" : "%.0f ms", millis);
	}

}
