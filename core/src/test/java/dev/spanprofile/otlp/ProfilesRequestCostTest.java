package dev.spanprofile.otlp;

import java.io.ByteArrayOutputStream;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.zip.GZIPOutputStream;

import dev.spanprofile.profile.FrameKind;
import dev.spanprofile.profile.FrameTable;
import dev.spanprofile.profile.SampleKind;
import dev.spanprofile.profile.StackTree;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.proto.collector.profiles.v1development.ExportProfilesServiceRequest;
import io.opentelemetry.proto.profiles.v1development.ProfilesDictionary;
import io.opentelemetry.sdk.resources.Resource;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * One export interval at a sample-app-like load (10 s at 20 requests a second: 200 local
 * roots, each with about 30 distinct stacks of depth 40 to 80 drawn from 300 shapes, cpu
 * and wall): the dictionary holds each stack once however many spans share it, and the
 * build's CPU time and size are printed for the closing note.
 */
class ProfilesRequestCostTest {

	private static final long INTERVAL = 10_000_000L;

	private static final int ROOTS = 200;

	private static final int SHAPES = 300;

	@Test
	void oneIntervalAtSampleAppLoad() throws Exception {
		FrameTable frames = new FrameTable();
		SplittableRandom random = new SplittableRandom(13);
		int[] frameIds = new int[2_000];
		for (int i = 0; i < frameIds.length; i++) {
			frameIds[i] = frames.intern("com.example.shop.package" + (i % 40) + ".Class" + i + ".method" + i,
					FrameKind.JAVA);
		}
		List<int[]> shapes = new ArrayList<>();
		for (int i = 0; i < SHAPES; i++) {
			int[] stack = new int[40 + random.nextInt(41)];
			for (int d = 0; d < stack.length; d++) {
				// Shared framework prefix, application-specific tail, as in a web
				// application's stacks.
				stack[d] = (d < 30) ? frameIds[d] : frameIds[30 + random.nextInt(frameIds.length - 30)];
			}
			shapes.add(stack);
		}
		List<LinkedSamples> batch = new ArrayList<>();
		for (int root = 0; root < ROOTS; root++) {
			String traceId = String.format(Locale.ROOT, "%032x", root + 1);
			String spanId = String.format(Locale.ROOT, "%016x", root + 1);
			for (SampleKind kind : new SampleKind[] { SampleKind.CPU, SampleKind.WALL }) {
				StackTree tree = new StackTree();
				for (int s = 0; s < 30; s++) {
					tree.add(shapes.get(random.nextInt(SHAPES)), 1 + random.nextInt(3));
				}
				batch.add(new LinkedSamples(traceId, spanId, kind, tree));
			}
		}
		Resource resource = Resource.create(Attributes.of(AttributeKey.stringKey("service.name"), "shop"));
		ThreadMXBean threads = ManagementFactory.getThreadMXBean();
		byte[] encoded = null;
		// Warm up, then measure the steady state an application reaches after a few
		// intervals.
		for (int i = 0; i < 20; i++) {
			encoded = build(frames, batch, resource);
		}
		int runs = 30;
		long cpuBefore = threads.getCurrentThreadCpuTime();
		for (int i = 0; i < runs; i++) {
			encoded = build(frames, batch, resource);
		}
		double buildMillis = (threads.getCurrentThreadCpuTime() - cpuBefore) / 1e6 / runs;
		cpuBefore = threads.getCurrentThreadCpuTime();
		byte[] gzipped = null;
		for (int i = 0; i < runs; i++) {
			gzipped = gzip(encoded);
		}
		double gzipMillis = (threads.getCurrentThreadCpuTime() - cpuBefore) / 1e6 / runs;
		ExportProfilesServiceRequest request = ExportProfilesServiceRequest.parseFrom(encoded);
		ProfilesDictionary dictionary = request.getDictionary();
		long samples = request.getResourceProfiles(0)
			.getScopeProfiles(0)
			.getProfilesList()
			.stream()
			.mapToLong((profile) -> profile.getSamplesCount())
			.sum();
		System.out.printf(Locale.ROOT,
				"otlp request cost: %d roots, %d samples, %d stacks, %d locations: build+encode %.1f ms CPU, gzip %.1f "
						+ "ms CPU; %d bytes, %d gzipped%n",
				ROOTS, samples, dictionary.getStackTableCount() - 1, dictionary.getLocationTableCount() - 1,
				buildMillis, gzipMillis, encoded.length, gzipped.length);
		assertThat(dictionary.getStackTableCount() - 1).isLessThanOrEqualTo(SHAPES);
		assertThat(dictionary.getLocationTableCount() - 1).isLessThanOrEqualTo(frameIds.length);
		assertThat(dictionary.getLinkTableCount() - 1).isEqualTo(ROOTS);
		assertThat(request.getResourceProfiles(0).getScopeProfiles(0).getProfilesCount()).isEqualTo(2);
	}

	private static byte[] build(FrameTable frames, List<LinkedSamples> batch, Resource resource) {
		ProfilesRequestBuilder builder = new ProfilesRequestBuilder(frames, INTERVAL);
		batch.forEach(builder::add);
		return builder.build(resource, 0, 10_000_000_000L).toByteArray();
	}

	private static byte[] gzip(byte[] bytes) throws Exception {
		ByteArrayOutputStream out = new ByteArrayOutputStream();
		try (GZIPOutputStream gzip = new GZIPOutputStream(out)) {
			gzip.write(bytes);
		}
		return out.toByteArray();
	}

}
