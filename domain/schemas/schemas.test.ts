import { test } from "node:test";
import assert from "node:assert/strict";
import { changePasswordFormSchema, loginFormSchema, passwordStrength, registerFormSchema } from "./auth";
import { checkPicture, profileFormSchema } from "./users";
import { LOAN_MESSAGES, repaymentSchema } from "./loans";

const firstMessage = (result: { success: boolean; error?: { issues: { message: string }[] } }) => result.error?.issues[0]?.message;

const form = {
  firstName: "Grace",
  lastName: "Hopper",
  email: "grace@example.com",
  password: "secret123",
  confirmPassword: "secret123",
  agreeToTerms: true,
};

test("the registration form needs matching passwords, shown on the confirm field", () => {
  const result = registerFormSchema.safeParse({ ...form, confirmPassword: "secret124" });
  assert.equal(firstMessage(result), "Passwords don't match");
  assert.deepEqual(result.error?.issues[0].path, ["confirmPassword"]);
});

test("the registration form needs the terms ticked and a confirmation of 6 or more", () => {
  assert.equal(firstMessage(registerFormSchema.safeParse({ ...form, agreeToTerms: false })), "You must agree to the terms and conditions");
  assert.equal(firstMessage(registerFormSchema.safeParse({ ...form, confirmPassword: "123" })), "Please confirm your password");
  const ok = registerFormSchema.parse(form);
  assert.equal(ok.role, "user");
});

test("the login form defaults to a user and refuses an unknown user type", () => {
  assert.equal(loginFormSchema.parse({ email: "a@example.com", password: "secret1" }).userType, "user");
  assert.equal(firstMessage(loginFormSchema.safeParse({ email: "a@example.com", password: "secret1", userType: "root" })), "Please select user type");
});

test("the password change form reports mismatches and short passwords", () => {
  assert.equal(firstMessage(changePasswordFormSchema.safeParse({ currentPassword: "x", newPassword: "abcdefgh", confirmPassword: "abcdefgi" })), "New passwords do not match");
  assert.equal(firstMessage(changePasswordFormSchema.safeParse({ currentPassword: "x", newPassword: "abc", confirmPassword: "abc" })), "Password must be at least 8 characters long");
});

test("password strength counts five checks: under 3 Weak, 3 or 4 Medium, 5 Strong", () => {
  assert.deepEqual(passwordStrength("abc"), { score: 1, label: "Weak" });
  assert.equal(passwordStrength("abcdefgH").label, "Medium");
  assert.equal(passwordStrength("abcdefH1").label, "Medium");
  assert.deepEqual(passwordStrength("abcdeH1!"), { score: 5, label: "Strong" });
});

test("the profile form trims names and the picture check mirrors the server's limits", () => {
  assert.equal(firstMessage(profileFormSchema.safeParse({ firstName: "  ", lastName: "Lee" })), "First name and last name are required");
  assert.equal(checkPicture({ type: "application/pdf", size: 10 }), "Please select a valid image file");
  assert.equal(checkPicture({ type: "image/png", size: 5 * 1024 * 1024 }), "File size must be less than 5MB");
  assert.equal(checkPicture({ type: "image/png", size: 1024 }), null);
});

test("a repayment amount or permit deadline no contract call could carry is refused, not passed on", () => {
  const huge = "9".repeat(120);
  assert.equal(repaymentSchema.safeParse({ amount: huge }).success, false);
  assert.equal(repaymentSchema.safeParse({ amount: "10", deadline: 1e308 }).success, false);
  assert.equal(repaymentSchema.parse({ amount: "10.5", deadline: 1_900_000_000 }).amount, 10_500_000n);
});

test("a repayment for installment 0, a negative or a fractional installment is refused with the installment message", () => {
  for (const installmentNumber of [0, "0", -1, 1.5, "abc"]) {
    const parsed = repaymentSchema.safeParse({ amount: "10", installmentNumber });
    assert.equal(parsed.success, false, `installment ${installmentNumber} accepted`);
    assert.deepEqual(
      parsed.error!.issues.map((issue) => [issue.path.join("."), issue.message]),
      [["installmentNumber", LOAN_MESSAGES.installment]],
    );
  }
  assert.equal(LOAN_MESSAGES.installment, "Installment number must be a whole number of 1 or more");
  assert.equal(repaymentSchema.parse({ amount: "10", installmentNumber: "1" }).installmentNumber, 1);
  assert.equal(repaymentSchema.parse({ amount: "10", installmentNumber: "" }).installmentNumber, undefined);
});
