"""UI formats every client shares: tier-0 blocks (:mod:`lwcore.ui.blocks`) and the
``visible_when`` condition grammar (:mod:`lwcore.ui.condition`). Pure data: rendering is the
panels plugins' and the hosts' business."""
