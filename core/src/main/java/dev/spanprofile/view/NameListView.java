package dev.spanprofile.view;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import dev.spanprofile.aggregate.AggregateSettings;
import dev.spanprofile.aggregate.NameSummary;
import dev.spanprofile.render.html.TablePage;
import dev.spanprofile.render.html.TablePage.Cell;

/**
 * Every local-root span name seen in the window with its latency and samples, busiest
 * first.
 */
public final class NameListView implements TableView {

	private final ViewContext context;

	private final Duration window;

	private final List<NameSummary> names;

	private final AggregateSettings settings;

	/** Per name, how much it waited, on what, and for a core. */
	private final Map<String, NameWaits> waits;

	/** Whether waits are recorded. */
	private final boolean waitsRecorded;

	/**
	 * Per name, its p99 in each bucket of the window, oldest first; -1 where none ended.
	 */
	private final Map<String, long[]> p99s;

	NameListView(ViewContext context, Duration window, List<NameSummary> names, AggregateSettings settings,
			Map<String, NameWaits> waits, boolean waitsRecorded, Map<String, long[]> p99s) {
		this.context = context;
		this.waitsRecorded = waitsRecorded;
		this.window = window;
		this.names = names;
		this.settings = settings;
		this.waits = waits;
		this.p99s = p99s;
	}

	@Override
	public NameListJson json() {
		List<NameSummaryJson> names = new ArrayList<>();
		for (NameSummary summary : this.names) {
			List<Double> p99s = new ArrayList<>();
			for (long p99 : this.p99s.get(summary.name())) {
				p99s.add((p99 >= 0) ? p99 / 1e6 : null);
			}
			NameWaits waits = this.waits.get(summary.name());
			names.add(new NameSummaryJson(summary.name(), summary.count(), summary.sampled(), summary.unsampled(),
					summary.unsampledProfiled(), summary.errors(), summary.p50Nanos() / 1e6, summary.p90Nanos() / 1e6,
					summary.p99Nanos() / 1e6, summary.maxNanos() / 1e6, p99s,
					new NameSummaryJson.Samples(summary.cpuSamples(), summary.wallSamples()), waits.json(),
					waits.coreWaitJson(), summary.slowest()));
		}
		return new NameListJson(this.window.toSeconds(), names);
	}

	@Override
	public String html() {
		TablePage page = TablePage.titled("Span names")
			.fact("window", "last " + NameViews.describe(this.window))
			.fact("names",
					this.names.size() + " (at most " + this.settings.maxNames() + "; later ones count as '"
							+ AggregateSettings.OTHER + "')")
			.link("JSON", "names?format=json&window=" + this.window.toSeconds() + "s")
			.link("last 15 minutes", "names?format=html&window=15m")
			.link("whole window", "names?format=html")
			.indexHref("../spanprofile");
		page.note("Latency counts every request of each name; profiles merge the samples of all of them, so a pattern "
				+ "across many short requests shows. 'slow vs typical' compares requests slower than the name's "
				+ "p90 with the rest. Requests that tracing did not sample count too ('unsampled' under Requests): "
				+ "they have no span to open, but their time and samples are in their name's figures and graphs. "
				+ "Latency bars share one log scale: the thick part runs from p50 to p90, the mark is p99, the thin "
				+ "line reaches the slowest request.");
		boolean waitingShown = this.waitsRecorded || this.waits.values().stream().anyMatch(NameWaits::coreWaitRead);
		if (waitingShown) {
			page.note("Waiting: the share of the requests' time spent waiting (on sockets, files, locks, parks such as "
					+ "a pool's queue, sleeps, and short waits under the recording threshold), by category, with what "
					+ "each waited on most; then, apart, the share spent runnable but waiting for a core (a busy "
					+ "machine, a container's CPU limit). Both from every request folded in the window, added up as "
					+ "on a name's page; 'slow vs typical' with the Waits graph shows how much longer slow requests "
					+ "wait, and where.");
		}
		List<Cell> columns = new ArrayList<>(List.of(Cell.text("Span name"), Cell.number("Requests"),
				Cell.text("Latency").styled("latency"), Cell.text("p99 over the window"), Cell.number("Samples")));
		if (waitingShown) {
			columns.add(Cell.text("Waiting"));
		}
		columns.add(Cell.text("Profiles"));
		columns.add(Cell.text("Slowest"));
		page.columns(columns.toArray(Cell[]::new));
		String window = "&window=" + this.window.toSeconds() + "s";
		// One latency scale for every row, so that the bars compare.
		double fastest = this.names.stream().mapToLong(NameSummary::p50Nanos).filter((p50) -> p50 > 0).min().orElse(1);
		double slowest = this.names.stream().mapToLong(NameSummary::maxNanos).max().orElse(1);
		for (NameSummary summary : this.names) {
			String href = "names?format=html&name=" + URLEncoder.encode(summary.name(), StandardCharsets.UTF_8)
					+ window;
			Cell slowestLinks = Cell.links().styled("slowest");
			for (String spanId : summary.slowest()) {
				slowestLinks.link(spanId.substring(0, Math.min(8, spanId.length())) + "…", spanId);
			}
			List<Cell> row = new ArrayList<>(List.of(Cell.links().link(summary.name(), href).styled("name"),
					Cell.number(Long.toString(summary.count())).sub(requestsNote(summary)),
					latency(summary, fastest / 1e6, slowest / 1e6), p99Line(summary),
					Cell.number(summary.cpuSamples() + " CPU").sub(summary.wallSamples() + " wall")));
			Cell profiles = Cell.links().link("all", href).link("slow vs typical", href + "&compare=typical");
			if (waitingShown) {
				NameWaits waits = this.waits.get(summary.name());
				row.add(waitsBar(waits));
				if (waits.waited()) {
					profiles.link("waits, slow vs typical", href + "&compare=typical&event=wait");
				}
			}
			row.add(profiles.styled("profiles"));
			row.add(slowestLinks);
			page.row(row);
		}
		return page.render();
	}

	/** Failed and unsampled requests, when there are any. */
	private static String requestsNote(NameSummary summary) {
		List<String> parts = new ArrayList<>();
		if (summary.errors() > 0) {
			parts.add(summary.errors() + " failed");
		}
		if (summary.unsampled() > 0) {
			parts.add(summary.unsampled() + " unsampled");
		}
		return parts.isEmpty() ? null : String.join(" · ", parts);
	}

	/**
	 * The p99 to read first, then the bar of p50, p90, p99 and max on the table's scale.
	 */
	private static Cell latency(NameSummary summary, double fastestMillis, double slowestMillis) {
		String figures = "p50 " + millis(summary.p50Nanos()) + " · p90 " + millis(summary.p90Nanos()) + " · max "
				+ millis(summary.maxNanos());
		return Cell
			.latency("p99 " + millis(summary.p99Nanos()), summary.p50Nanos() / 1e6, summary.p90Nanos() / 1e6,
					summary.p99Nanos() / 1e6, summary.maxNanos() / 1e6, fastestMillis, slowestMillis,
					"p99 " + millis(summary.p99Nanos()) + " · " + figures)
			.sub(figures)
			.styled("latency");
	}

	/**
	 * The share of the name's time spent waiting, by category, and waiting for a core,
	 * then the same in words.
	 */
	private static Cell waitsBar(NameWaits waits) {
		return Cell.shares(waits.shares(), waits.text(), "Waiting: " + waits.text()).styled("waiting");
	}

	/** The name's p99 per bucket as small bars: a regression shows as a step. */
	private Cell p99Line(NameSummary summary) {
		long[] nanos = this.p99s.get(summary.name());
		double[] millis = new double[nanos.length];
		double most = 0;
		for (int i = 0; i < nanos.length; i++) {
			millis[i] = (nanos[i] >= 0) ? nanos[i] / 1e6 : -1;
			most = Math.max(most, millis[i]);
		}
		String bucket = NameViews.describe(this.settings.bucket());
		return Cell.sparkline(millis, "p99 per " + bucket + ", highest " + EmptyProfiles.millis(most))
			.sub("per " + bucket + ", up to " + EmptyProfiles.millis(most))
			.styled("trend");
	}

	private static String millis(long nanos) {
		return EmptyProfiles.millis(nanos / 1e6);
	}

}
