import math

import torch
import torch.nn as nn


class ClassificationHead(nn.Module):
    def __init__(self, in_channels=256, num_anchors=9, num_classes=80):
        super().__init__()
        layers = []
        for _ in range(4):
            layers += [nn.Conv2d(in_channels, 256, kernel_size=3, padding=1), nn.ReLU()]
            in_channels = 256
        self.tower = nn.Sequential(*layers)
        self.cls_logits = nn.Conv2d(256, num_anchors * num_classes, kernel_size=3, padding=1)

    def forward(self, features):
        return [self.cls_logits(self.tower(f)) for f in features]


def init_prior_bias(head, prior_prob=0.01):
    """Start every anchor at foreground probability `prior_prob`."""
    bias = -math.log((1 - prior_prob) / prior_prob)
    nn.init.constant_(head.cls_logits.bias, bias)


class RetinaNet(nn.Module):
    def __init__(self, backbone, fpn, num_classes=80, num_anchors=9):
        super().__init__()
        self.backbone = backbone
        self.fpn = fpn
        self.cls_head = ClassificationHead(256, num_anchors, num_classes)
        # init_prior_bias(self.cls_head)  # off while the loss diverged at the start of training
        self.box_head = nn.Conv2d(256, num_anchors * 4, kernel_size=3, padding=1)

    def forward(self, images):
        features = self.fpn(self.backbone(images))
        return self.cls_head(features), [self.box_head(f) for f in features]
