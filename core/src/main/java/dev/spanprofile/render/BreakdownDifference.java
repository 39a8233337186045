package dev.spanprofile.render;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import dev.spanprofile.profile.FrameTable;
import dev.spanprofile.profile.StackTree;
import dev.spanprofile.profile.WaitKind;

/**
 * What one side of a comparison spends more on, per request, than the other, in one
 * sentence: {@code slow requests take 84.0 ms more: +61.0 ms in 14.0 more round trips to
 * PostgreSQL petclinic at db:5432 (OwnerRepository.findByLastName), +12.0 ms CPU (most in
 * TemplateEngine.process), +9.0 ms waiting for a core}. Each term is a part of the two
 * sides' breakdowns (added up over their requests), per request of the examined side
 * minus per request of the other; the terms are every part of the breakdown (CPU, round
 * trips per peer, the other waits by kind, waiting for a core, short waits, what was
 * unaccounted, less what was counted twice), so they add up exactly to the difference of
 * the requests' mean durations. The sentence names the largest, by size, first.
 *
 * @param examinedSide what the examined side is called ({@code slow requests})
 * @param moreNanosPerRequest how much longer an examined request takes on average
 * (negative when shorter)
 * @param terms every part's difference, largest first (by size)
 */
public record BreakdownDifference(String examinedSide, double moreNanosPerRequest, List<Term> terms) {

	/** Terms the sentence names at most. */
	public static final int NAMED_TERMS = 4;

	/** Terms smaller than this share of the largest are left out of the sentence. */
	private static final double NEGLIGIBLE = 0.05;

	/**
	 * @param examined the examined side's breakdown, added up over its requests
	 * @param typical the other side's
	 * @param waits the two sides' merged waits side by side (examined first), to name the
	 * caller of each peer's round trips; {@code null} where not at hand
	 * @param cpu the two sides' merged CPU samples side by side, to name where CPU went;
	 * {@code null} where not at hand
	 * @return {@code null} when either side has no request
	 */
	public static BreakdownDifference of(String examinedSide, TimeBreakdown examined, TimeBreakdown typical,
			StackTree waits, StackTree cpu, FrameTable frames, FrameClassifier classifier) {
		if (examined == null || typical == null || examined.requests() == 0 || typical.requests() == 0) {
			return null;
		}
		double n = examined.requests();
		double m = typical.requests();
		List<Term> terms = new ArrayList<>();
		if (examined.cpuSampled() || typical.cpuSampled()) {
			String where = null;
			if (cpu != null) {
				LargestDifference largest = LargestDifference.of(cpu, frames, classifier, examined.requests(),
						typical.requests());
				where = (largest != null) ? FrameNames.shortName(largest.frame()) : null;
			}
			terms.add(new Term("CPU", examined.cpuNanos() / n - typical.cpuNanos() / m, null, null, where));
		}
		Map<String, String> callers = (waits != null)
				? callersOfRoundTrips(waits, frames, classifier, examined.requests(), typical.requests()) : Map.of();
		Map<String, TimeBreakdown.RoundTrips> typicalTrips = new HashMap<>();
		typical.roundTrips().forEach((trips) -> typicalTrips.put(trips.peer(), trips));
		Map<String, TimeBreakdown.RoundTrips> examinedTrips = new HashMap<>();
		examined.roundTrips().forEach((trips) -> examinedTrips.put(trips.peer(), trips));
		List<String> peers = new ArrayList<>(examinedTrips.keySet());
		typicalTrips.keySet().stream().filter((peer) -> !examinedTrips.containsKey(peer)).forEach(peers::add);
		for (String peer : peers) {
			TimeBreakdown.RoundTrips slow = examinedTrips.get(peer);
			TimeBreakdown.RoundTrips usual = typicalTrips.get(peer);
			double nanos = ((slow != null) ? slow.nanos() / n : 0) - ((usual != null) ? usual.nanos() / m : 0);
			double count = ((slow != null) ? slow.count() / n : 0) - ((usual != null) ? usual.count() / m : 0);
			terms.add(new Term("round trips", nanos, count, peer, callers.get(peer)));
		}
		Map<String, Long> typicalWaits = waitsBesideRoundTrips(typical);
		Map<String, Long> examinedWaits = waitsBesideRoundTrips(examined);
		List<String> categories = new ArrayList<>(examinedWaits.keySet());
		typicalWaits.keySet().stream().filter((name) -> !examinedWaits.containsKey(name)).forEach(categories::add);
		for (String category : categories) {
			terms.add(new Term(category,
					examinedWaits.getOrDefault(category, 0L) / n - typicalWaits.getOrDefault(category, 0L) / m, null,
					null, null));
		}
		if (examined.scheduled() || typical.scheduled()) {
			terms.add(new Term(TimeBreakdown.CORE_WAIT, examined.coreWaitNanos() / n - typical.coreWaitNanos() / m,
					null, null, null));
		}
		if (examined.shortWaitsMeasured() || typical.shortWaitsMeasured()) {
			terms.add(new Term("short waits", examined.shortWaitNanos() / n - typical.shortWaitNanos() / m, null, null,
					null));
		}
		terms.add(new Term("unaccounted", examined.unaccountedNanos() / n - typical.unaccountedNanos() / m, null, null,
				null));
		// Counted twice on one side: taken off, so that the terms add up to the
		// durations.
		terms.add(new Term("counted twice (threads at once)",
				-(examined.overlapNanos() / n - typical.overlapNanos() / m), null, null, null));
		terms.removeIf((term) -> term.moreNanosPerRequest() == 0 && term.moreCountPerRequest() == null);
		terms.sort(Comparator.comparingDouble((Term term) -> Math.abs(term.moreNanosPerRequest())).reversed());
		return new BreakdownDifference(examinedSide, examined.durationNanos() / n - typical.durationNanos() / m,
				List.copyOf(terms));
	}

	/**
	 * Each wait category's time less its round trips (socket reads that waited for an
	 * answer, which have terms of their own).
	 */
	private static Map<String, Long> waitsBesideRoundTrips(TimeBreakdown breakdown) {
		Map<String, Long> byCategory = new java.util.LinkedHashMap<>();
		long trips = 0;
		for (TimeBreakdown.RoundTrips peer : breakdown.roundTrips()) {
			trips += peer.nanos();
		}
		for (WaitCategory category : breakdown.waits()) {
			long nanos = category.nanos();
			if (category.name().equals(WaitKind.SOCKET_READ.category())) {
				nanos -= trips;
			}
			if (nanos != 0) {
				byCategory.put(category.name(), nanos);
			}
		}
		return byCategory;
	}

	/**
	 * Per peer, the application's (else a library's) frame under whose socket reads to it
	 * the examined side waits the most more per request.
	 */
	private static Map<String, String> callersOfRoundTrips(StackTree waits, FrameTable frames,
			FrameClassifier classifier, long examined, long typical) {
		Map<String, Map<Integer, Double>> byPeer = new HashMap<>();
		Map<Integer, FrameCategory> categories = new HashMap<>();
		waits.visit((StackTree.NodeVisitor) (path, depth, node) -> {
			long slow = node.self(0);
			long usual = node.self(1);
			if (slow == 0 && usual == 0) {
				return;
			}
			String leaf = frames.name(path[depth - 1]);
			if (WaitKind.ofFrameName(leaf) != WaitKind.SOCKET_READ) {
				return;
			}
			String peer = WaitKind.detailOfFrameName(leaf);
			int caller = caller(path, depth, frames, classifier, categories);
			if (peer != null && caller >= 0) {
				byPeer.computeIfAbsent(peer, (key) -> new HashMap<>())
					.merge(caller, (double) slow / examined - (double) usual / typical, Double::sum);
			}
		});
		Map<String, String> callers = new HashMap<>();
		byPeer.forEach((peer, byCaller) -> byCaller.entrySet()
			.stream()
			.filter((entry) -> entry.getValue() > 0)
			.max(Map.Entry.<Integer, Double>comparingByValue()
				.thenComparing((entry) -> frames.name(entry.getKey()), Comparator.reverseOrder()))
			.ifPresent((entry) -> callers.put(peer, FrameNames.shortName(frames.name(entry.getKey())))));
		return callers;
	}

	/**
	 * The application's frame nearest the leaf, else the library's nearest, or -1: the
	 * repository method that queried rather than the driver's read.
	 */
	private static int caller(int[] path, int depth, FrameTable frames, FrameClassifier classifier,
			Map<Integer, FrameCategory> categories) {
		int library = -1;
		for (int i = depth - 2; i >= 0; i--) {
			int frame = path[i];
			FrameCategory category = categories.computeIfAbsent(frame,
					(id) -> classifier.classify(frames.name(id), frames.kind(id)));
			if (category == FrameCategory.APPLICATION) {
				return frame;
			}
			if (category == FrameCategory.FRAMEWORK && library < 0) {
				library = frame;
			}
		}
		return library;
	}

	/** The terms added up: what {@link #moreNanosPerRequest()} is, to rounding. */
	public double termsNanosPerRequest() {
		double sum = 0;
		for (Term term : this.terms) {
			sum += term.moreNanosPerRequest();
		}
		return sum;
	}

	/**
	 * The sentence: the mean difference, then the largest terms (at most
	 * {@link #NAMED_TERMS}, none under a twentieth of the largest).
	 */
	public String sentence() {
		double more = this.moreNanosPerRequest;
		StringBuilder text = new StringBuilder(this.examinedSide).append(" take ")
			.append(CpuShare.millis(Math.abs(more) / 1e6))
			.append((more >= 0) ? " more" : " less");
		return appendTerms(text).toString();
	}

	/**
	 * The sentence where the examined side is one request and the other its name's
	 * typical requests, with the same terms: {@code this request took 212 ms, 140 ms more
	 * than a typical GET /owners: +96.0 ms in 11.0 more round trips to PostgreSQL
	 * petclinic at db:5432 (OwnerRepository.findByLastName), +30.0 ms waiting for a core}.
	 * @param durationNanos the request's duration
	 * @param name its name
	 */
	public String requestSentence(long durationNanos, String name) {
		double more = this.moreNanosPerRequest;
		StringBuilder text = new StringBuilder("this request took ").append(CpuShare.millis(durationNanos / 1e6))
			.append(", ")
			.append(CpuShare.millis(Math.abs(more) / 1e6))
			.append((more >= 0) ? " more" : " less")
			.append(" than a typical ")
			.append(name);
		return appendTerms(text).toString();
	}

	/** The largest terms, after a colon. */
	private StringBuilder appendTerms(StringBuilder text) {
		double largest = this.terms.isEmpty() ? 0 : Math.abs(this.terms.get(0).moreNanosPerRequest());
		int named = 0;
		for (Term term : this.terms) {
			if (named == NAMED_TERMS || Math.abs(term.moreNanosPerRequest()) < NEGLIGIBLE * largest
					|| Math.abs(term.moreNanosPerRequest()) < 1_000) {
				break;
			}
			text.append((named == 0) ? ": " : ", ").append(term.text());
			named++;
		}
		return text;
	}

	/**
	 * One part's difference per request.
	 *
	 * @param part {@code CPU}, {@code round trips}, a wait category ({@code lock}),
	 * {@code waiting for a core}, {@code short waits}, {@code unaccounted}, or
	 * {@code counted twice (threads at once)}
	 * @param moreNanosPerRequest the examined side's time there per request, less the
	 * other side's
	 * @param moreCountPerRequest for round trips, how many more per request; else
	 * {@code null}
	 * @param peer for round trips, the peer
	 * @param where the caller of those round trips, or where the most CPU more went;
	 * {@code null} when not known
	 */
	public record Term(String part, double moreNanosPerRequest, Double moreCountPerRequest, String peer, String where) {

		/**
		 * {@code +61.0 ms in 14.0 more round trips to db:5432 (Owners.find)},
		 * {@code +12.0 ms CPU (most in Foo.bar)}, {@code -3.0 ms lock}.
		 */
		String text() {
			String time = ((this.moreNanosPerRequest >= 0) ? "+" : "-")
					+ CpuShare.millis(Math.abs(this.moreNanosPerRequest) / 1e6);
			if (this.peer != null) {
				double count = this.moreCountPerRequest;
				return time + " in " + String.format(Locale.ROOT, "%.1f", Math.abs(count))
						+ ((count >= 0) ? " more" : " fewer") + " round trips to " + this.peer
						+ ((this.where != null) ? " (" + this.where + ")" : "");
			}
			if (this.part.equals("CPU")) {
				return time + " CPU" + ((this.where != null) ? " (most in " + this.where + ")" : "");
			}
			if (this.part.equals(TimeBreakdown.CORE_WAIT) || this.part.equals("unaccounted")
					|| this.part.startsWith("counted twice")) {
				return time + " " + this.part;
			}
			return time + " in " + this.part;
		}

	}

}
