package dev.spanprofile.sample;

import java.util.Map;

import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

@RestController
class ShopController {

	private final OrderValidator validator;

	private final ReportService reports;

	private final PaymentService payments;

	private final InventoryService inventory;

	ShopController(OrderValidator validator, ReportService reports, PaymentService payments,
			InventoryService inventory) {
		this.validator = validator;
		this.reports = reports;
		this.payments = payments;
		this.inventory = inventory;
	}

	@GetMapping("/orders/{orderId}/validate")
	Map<String, Object> validate(@PathVariable String orderId, @RequestParam(defaultValue = "3") int items) {
		return Map.of("orderId", orderId, "valid", this.validator.validate(orderId, Math.min(items, 20)));
	}

	@GetMapping("/reports/{reportId}")
	Map<String, Object> report(@PathVariable String reportId) {
		return Map.of("reportId", reportId, "report", this.reports.build(reportId));
	}

	@GetMapping("/reports/{reportId}/export")
	Map<String, Object> export(@PathVariable String reportId, @RequestParam(defaultValue = "20000") int rows) {
		return Map.of("reportId", reportId, "bytes", this.reports.export(reportId, Math.min(rows, 100_000)));
	}

	@GetMapping("/checkout/{cartId}")
	Map<String, Object> checkout(@PathVariable String cartId) {
		return Map.of("cartId", cartId, "result", this.payments.checkout(cartId));
	}

	@GetMapping("/inventory/{sku}/reserve")
	Map<String, Object> reserve(@PathVariable String sku) {
		return Map.of("sku", sku, "reservation", this.inventory.reserve(sku));
	}

}
