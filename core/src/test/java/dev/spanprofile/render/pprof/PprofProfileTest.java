package dev.spanprofile.render.pprof;

import java.io.ByteArrayInputStream;
import java.util.List;
import java.util.zip.GZIPInputStream;

import dev.spanprofile.render.pprof.proto.PprofProtos.Profile;
import dev.spanprofile.render.pprof.proto.PprofProtos.Sample;
import dev.spanprofile.profile.FrameKind;
import dev.spanprofile.profile.FrameTable;
import dev.spanprofile.profile.StackTree;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class PprofProfileTest {

	@Test
	void stacksAreLeafFirstAndEachSampleIsLabelledWithItsSpan() throws Exception {
		FrameTable frames = new FrameTable();
		int run = frames.intern("java.lang.Thread.run", FrameKind.JAVA);
		int work = frames.intern("com.acme.Work.call", FrameKind.JAVA);
		int sys = frames.intern("do_syscall_64", FrameKind.KERNEL);
		StackTree a = new StackTree();
		a.add(new int[] { run, work }, 4);
		a.add(new int[] { run, work, sys }, 1);
		StackTree b = new StackTree();
		b.add(new int[] { run }, 2);
		byte[] gzip = PprofProfile.gzip(
				List.of(new PprofProfile.SpanSamples("t1", "s1", "GET /a", a),
						new PprofProfile.SpanSamples("t1", "s2", "GET /b", b)),
				frames, "cpu", 10_000_000, 1_000, 5_000);

		Profile profile;
		try (GZIPInputStream in = new GZIPInputStream(new ByteArrayInputStream(gzip))) {
			profile = Profile.parseFrom(in);
		}
		List<String> strings = profile.getStringTableList();
		assertThat(profile.getSampleCount()).isEqualTo(3);
		assertThat(profile.getFunctionCount()).isEqualTo(3);
		assertThat(strings.get((int) profile.getPeriodType().getType())).isEqualTo("cpu");
		assertThat(strings.get((int) profile.getSampleType(1).getUnit())).isEqualTo("nanoseconds");
		Sample deepest = profile.getSampleList()
			.stream()
			.filter((s) -> s.getLocationIdCount() == 3)
			.findFirst()
			.orElseThrow();
		assertThat(functionName(profile, deepest.getLocationId(0))).isEqualTo("do_syscall_64");
		assertThat(functionName(profile, deepest.getLocationId(2))).isEqualTo("java.lang.Thread.run");
		assertThat(deepest.getValueList()).containsExactly(1L, 10_000_000L);
		long total = 0;
		for (Sample sample : profile.getSampleList()) {
			total += sample.getValue(0);
			String span = null;
			for (var label : sample.getLabelList()) {
				if (strings.get((int) label.getKey()).equals("span_id")) {
					span = strings.get((int) label.getStr());
				}
			}
			assertThat(span).isEqualTo(sample.getLocationIdCount() == 1 ? "s2" : "s1");
		}
		assertThat(total).isEqualTo(7);
	}

	@Test
	void lockProfilesCountTheWaitsBesideTheirDelay() throws Exception {
		FrameTable frames = new FrameTable();
		int run = frames.intern("java.lang.Thread.run", FrameKind.JAVA);
		int enter = frames.intern("com.acme.Cache.get", FrameKind.JAVA);
		StackTree waits = new StackTree();
		waits.add(new int[] { run, enter }, 30_000_000, 1);
		waits.add(new int[] { run, enter }, 20_000_000, 1);
		waits.add(new int[] { run }, 5_000_000, 1);
		byte[] gzip = PprofProfile.gzip(List.of(new PprofProfile.SpanSamples("t1", "s1", "GET /a", waits)), frames,
				"lock", 0, 1_000, 5_000);

		Profile profile;
		try (GZIPInputStream in = new GZIPInputStream(new ByteArrayInputStream(gzip))) {
			profile = Profile.parseFrom(in);
		}
		List<String> strings = profile.getStringTableList();
		assertThat(profile.getSampleTypeList())
			.extracting((type) -> strings.get((int) type.getType()) + "/" + strings.get((int) type.getUnit()))
			.containsExactly("contentions/count", "delay/nanoseconds");
		assertThat(strings.get((int) profile.getSampleType((int) profile.getDefaultSampleType()).getType()))
			.isEqualTo("delay");
		Sample inGet = profile.getSampleList()
			.stream()
			.filter((s) -> s.getLocationIdCount() == 2)
			.findFirst()
			.orElseThrow();
		assertThat(inGet.getValueList()).containsExactly(2L, 50_000_000L);
	}

	@Test
	void waitProfilesAreWeighedInNanosecondsAndCountTheirWaitsAsLockProfilesDo() throws Exception {
		FrameTable frames = new FrameTable();
		int run = frames.intern("java.lang.Thread.run", FrameKind.JAVA);
		int query = frames.intern("com.acme.Repo.query", FrameKind.JAVA);
		int read = frames.intern("[socket read localhost:5432]", FrameKind.WAIT);
		int sleep = frames.intern("[sleep]", FrameKind.WAIT);
		StackTree waits = new StackTree();
		waits.add(new int[] { run, query, read }, 1_400_000_000L, 1);
		waits.add(new int[] { run, query, read }, 100_000_000L, 1);
		waits.add(new int[] { run, sleep }, 20_000_000L, 1);
		// Period: the wait threshold, 10 ms; each sample is one wait of its own length,
		// never a count of periods.
		byte[] gzip = PprofProfile.gzip(List.of(new PprofProfile.SpanSamples("t1", "s1", "GET /a", waits)), frames,
				"wait", 10_000_000, 1_000, 5_000);

		Profile profile;
		try (GZIPInputStream in = new GZIPInputStream(new ByteArrayInputStream(gzip))) {
			profile = Profile.parseFrom(in);
		}
		List<String> strings = profile.getStringTableList();
		assertThat(profile.getSampleTypeList())
			.extracting((type) -> strings.get((int) type.getType()) + "/" + strings.get((int) type.getUnit()))
			.containsExactly("contentions/count", "delay/nanoseconds");
		assertThat(strings.get((int) profile.getSampleType((int) profile.getDefaultSampleType()).getType()))
			.isEqualTo("delay");
		assertThat(strings.get((int) profile.getPeriodType().getUnit())).isEqualTo("nanoseconds");
		assertThat(profile.getPeriod()).isEqualTo(10_000_000L);
		Sample socket = profile.getSampleList()
			.stream()
			.filter((s) -> s.getLocationIdCount() == 3)
			.findFirst()
			.orElseThrow();
		assertThat(functionName(profile, socket.getLocationId(0))).isEqualTo("[socket read localhost:5432]");
		assertThat(socket.getValueList()).containsExactly(2L, 1_500_000_000L);
		Sample slept = profile.getSampleList()
			.stream()
			.filter((s) -> s.getLocationIdCount() == 2)
			.findFirst()
			.orElseThrow();
		assertThat(slept.getValueList()).containsExactly(1L, 20_000_000L);
	}

	@Test
	void aggregatedWaitTreesCarryTheDelayOnly() throws Exception {
		FrameTable frames = new FrameTable();
		int run = frames.intern("java.lang.Thread.run", FrameKind.JAVA);
		int sleep = frames.intern("[sleep]", FrameKind.WAIT);
		StackTree aggregated = new StackTree();
		aggregated.add(new int[] { run, sleep }, 300_000_000L);
		byte[] gzip = PprofProfile.gzip(List.of(new PprofProfile.SpanSamples("", "", "GET /a", aggregated)), frames,
				"wait", 10_000_000, 1_000, 5_000);

		Profile profile;
		try (GZIPInputStream in = new GZIPInputStream(new ByteArrayInputStream(gzip))) {
			profile = Profile.parseFrom(in);
		}
		List<String> strings = profile.getStringTableList();
		assertThat(profile.getSampleTypeList())
			.extracting((type) -> strings.get((int) type.getType()) + "/" + strings.get((int) type.getUnit()))
			.containsExactly("delay/nanoseconds");
		assertThat(profile.getSample(0).getValueList()).containsExactly(300_000_000L);
	}

	@Test
	void lockTreesWithoutCountedWaitsCarryTheDelayOnly() throws Exception {
		FrameTable frames = new FrameTable();
		int run = frames.intern("java.lang.Thread.run", FrameKind.JAVA);
		StackTree aggregated = new StackTree();
		aggregated.add(new int[] { run }, 5_000_000);
		byte[] gzip = PprofProfile.gzip(List.of(new PprofProfile.SpanSamples("", "", "GET /a", aggregated)), frames,
				"lock", 0, 1_000, 5_000);

		Profile profile;
		try (GZIPInputStream in = new GZIPInputStream(new ByteArrayInputStream(gzip))) {
			profile = Profile.parseFrom(in);
		}
		assertThat(profile.getSampleTypeCount()).isEqualTo(1);
		assertThat(profile.getSample(0).getValueList()).containsExactly(5_000_000L);
	}

	private static String functionName(Profile profile, long locationId) {
		long function = profile.getLocationList()
			.stream()
			.filter((l) -> l.getId() == locationId)
			.findFirst()
			.orElseThrow()
			.getLine(0)
			.getFunctionId();
		return profile.getStringTable((int) profile.getFunctionList()
			.stream()
			.filter((f) -> f.getId() == function)
			.findFirst()
			.orElseThrow()
			.getName());
	}

}
