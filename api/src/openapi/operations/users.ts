import type { OperationGroup } from "../types";

export const usersOperations: OperationGroup = {
  tag: "Users",
  description: "The signed-in user's own profile.",
  operations: {
    "GET /api/users/profile": { summary: "My profile", access: "user" },
    "PUT /api/users/profile": {
      summary: "Update my profile, disconnect my wallet, or mute servicing reminders",
      description:
        'Send the names (and phone, address); or only `walletAddress: ""` to disconnect the wallet; or only `remindersMuted` (true or false) to mute or unmute servicing reminders (other notices still come). A wallet is linked only by signing in with it.',
      access: "user",
      example: { firstName: "Grace", lastName: "Hopper", phoneNumber: "+1 555 010 0000", address: "1 Main St, Austin TX" },
    },
    "POST /api/users/profile/upload-picture": {
      summary: "Replace my profile picture",
      description: "A JPEG, PNG, GIF or WebP image under 5 MB, judged by its bytes rather than its name.",
      access: "user",
      body: { multipart: { files: ["profilePicture"] } },
    },
  },
};
