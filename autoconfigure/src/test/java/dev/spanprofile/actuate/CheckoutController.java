package dev.spanprofile.actuate;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Locale;

import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanContext;

import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.context.request.RequestContextHolder;
import org.springframework.web.context.request.ServletRequestAttributes;

/**
 * A checkout whose CPU goes into three recognisable steps (about 55 %, 30 % and 15 %),
 * and a relay that calls {@code /burn} on this same server with the trace context, so
 * that one trace has two local root spans here.
 */
@RestController
class CheckoutController {

	private static final ThreadMXBean threads = ManagementFactory.getThreadMXBean();

	static volatile long sink;

	private final HttpClient http = HttpClient.newHttpClient();

	@GetMapping("/checkout")
	String checkout(@RequestParam(defaultValue = "400") long cpuMillis) {
		FraudRules.scoreTransaction(cpuMillis * 55 / 100);
		DiscountEngine.applyPromotions(cpuMillis * 30 / 100);
		ReceiptFormatter.formatReceipt(cpuMillis * 15 / 100);
		return "checked out";
	}

	@GetMapping("/relay")
	String relay(@RequestParam(defaultValue = "200") long cpuMillis) throws Exception {
		burnIn(cpuMillis, CheckoutController::relayPreparation);
		// What any instrumented HTTP client does: pass the current span as the parent of
		// the server's span.
		SpanContext context = Span.current().getSpanContext();
		String traceparent = "00-" + context.getTraceId() + "-" + context.getSpanId() + "-01";
		int port = ((ServletRequestAttributes) RequestContextHolder.currentRequestAttributes()).getRequest()
			.getLocalPort();
		HttpRequest request = HttpRequest
			.newBuilder(URI.create("http://127.0.0.1:" + port + "/burn?cpuMillis=" + cpuMillis))
			.header("traceparent", traceparent)
			.build();
		return "relayed " + this.http.send(request, HttpResponse.BodyHandlers.ofString()).body();
	}

	static long relayPreparation(long seed) {
		return mix(seed, 150_000);
	}

	static void burnIn(long cpuMillis, java.util.function.LongUnaryOperator hot) {
		long until = threads.getCurrentThreadCpuTime() + cpuMillis * 1_000_000;
		long seed = System.nanoTime();
		while (threads.getCurrentThreadCpuTime() < until) {
			seed = hot.applyAsLong(seed);
			sink += seed;
		}
	}

	static long mix(long seed, int rounds) {
		long x = seed;
		for (int i = 0; i < rounds; i++) {
			x = x * 6364136223846793005L + 1442695040888963407L;
			x ^= (x >>> 29);
		}
		return x;
	}

	static final class FraudRules {

		static void scoreTransaction(long cpuMillis) {
			burnIn(cpuMillis, FraudRules::evaluateRules);
		}

		static long evaluateRules(long seed) {
			return mix(seed, 120_000);
		}

	}

	static final class DiscountEngine {

		static void applyPromotions(long cpuMillis) {
			burnIn(cpuMillis, DiscountEngine::matchPromotion);
		}

		static long matchPromotion(long seed) {
			return mix(seed, 90_000);
		}

	}

	static final class ReceiptFormatter {

		static void formatReceipt(long cpuMillis) {
			burnIn(cpuMillis, ReceiptFormatter::formatLine);
		}

		static long formatLine(long seed) {
			// JDK formatting code: gives the graph frames of another colour.
			StringBuilder out = new StringBuilder();
			for (int i = 0; i < 40; i++) {
				out.append(String.format(Locale.ROOT, "%08d %-12s %10.2f%n", i, "item-" + (seed & 0xff), seed / 7.0));
			}
			return seed ^ out.length();
		}

	}

}
