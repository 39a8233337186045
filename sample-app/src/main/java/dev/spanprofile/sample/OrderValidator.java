package dev.spanprofile.sample;

import org.springframework.stereotype.Component;

/**
 * Validation with an expensive rule engine: the CPU goes into {@link #checkFraudRules}.
 */
@Component
class OrderValidator {

	boolean validate(String orderId, int items) {
		CpuWork.burn(20L + items * 5L, OrderValidator::checkFraudRules);
		return !orderId.isBlank();
	}

	static long checkFraudRules(long seed) {
		long x = seed;
		for (int rule = 0; rule < 50_000; rule++) {
			x = x * 6364136223846793005L + 1442695040888963407L;
			x ^= (x >>> 27);
		}
		return x;
	}

}
